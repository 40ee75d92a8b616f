// What the rules are, without their checks: every module of the registry (index.ts), in the order its checks run,
// with its rules' meta (each imported from its rule module, where it stands beside the checks). The registry, the
// panel (panel.js holds no check), the CLI's rule list and docs/rules.md (scripts/rules-doc.ts) read the rules
// from here; the registry's `modules` must name exactly these modules (its type says so).
import { meta as advisory } from "./advisory.ts";
import { meta as capability } from "./capability.ts";
import { meta as delivery } from "./delivery.ts";
import { meta as errors } from "./errors.ts";
import { meta as form } from "./form.ts";
import { meta as lifecycle } from "./lifecycle.ts";
import { meta as mrtr } from "./mrtr/index.ts";
import { meta as notify } from "./notify.ts";
import { meta as relay } from "./relay.ts";
import { meta as request } from "./request.ts";
import { meta as result } from "./result.ts";
import { meta as revision } from "./revision.ts";
import { meta as revisionFeature } from "./revisionFeature.ts";
import { meta as schema } from "./schema.ts";
import { meta as tasks } from "./tasks.ts";
import type { RuleMeta } from "./types.ts";
import { meta as unchecked } from "./unchecked.ts";
import { meta as url } from "./url.ts";
import { meta as urlFlow } from "./urlFlow.ts";

/** The payload module's families, each a file of its own (`request.ts`, …), in the order payload.ts runs them. */
export const payloadFamilies: Readonly<Record<string, readonly RuleMeta[]>> = { request, url, schema, form, result };

/** Each module's rules, by the module's name: its file is `<name>.ts`, or `<name>/index.ts` for a folder. */
export const moduleMetas = {
  revision,
  payload: Object.values(payloadFamilies).flat(),
  capability,
  revisionFeature,
  tasks,
  delivery,
  lifecycle,
  mrtr,
  errors,
  notify,
  urlFlow,
  relay,
  advisory,
  unchecked,
} as const satisfies Record<string, readonly RuleMeta[]>;

export type ModuleName = keyof typeof moduleMetas;

/** Every rule, module by module. */
export const rules: readonly RuleMeta[] = Object.values(moduleMetas).flat();

const byId = new Map(rules.map((r) => [r.id, r]));
export const ruleMeta = (id: string): RuleMeta | undefined => byId.get(id);

/** The catalogue's explanation of a rule (its title in docs/catalogue.md), or the id of a rule this build lacks. */
export const ruleTitle = (id: string): string => byId.get(id)?.title ?? id;
