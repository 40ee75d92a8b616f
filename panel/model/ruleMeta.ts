// The catalogue's side of each rule (its title, who breaks it, its revisions), without the rules' checks: every
// rule module's `meta` imported on its own, so panel.js holds no check (the engine runs in the extension's worker
// and in the import worker, never in the panel). The list follows the registry (src/engine/rules/index.ts);
// test/panel/ruleMeta.test.ts holds it to the registry, so a rule module added there and not here fails it.
import { meta as advisory } from "../../src/engine/rules/advisory.ts";
import { meta as capability } from "../../src/engine/rules/capability.ts";
import { meta as delivery } from "../../src/engine/rules/delivery.ts";
import { meta as errors } from "../../src/engine/rules/errors.ts";
import { meta as form } from "../../src/engine/rules/form.ts";
import { meta as lifecycle } from "../../src/engine/rules/lifecycle.ts";
import { meta as mrtr } from "../../src/engine/rules/mrtr/index.ts";
import { meta as notify } from "../../src/engine/rules/notify.ts";
import { meta as request } from "../../src/engine/rules/request.ts";
import { meta as result } from "../../src/engine/rules/result.ts";
import { meta as revision } from "../../src/engine/rules/revision.ts";
import { meta as revisionFeature } from "../../src/engine/rules/revisionFeature.ts";
import { meta as schema } from "../../src/engine/rules/schema.ts";
import { meta as tasks } from "../../src/engine/rules/tasks.ts";
import type { RuleMeta } from "../../src/engine/rules/types.ts";
import { meta as unchecked } from "../../src/engine/rules/unchecked.ts";
import { meta as url } from "../../src/engine/rules/url.ts";
import { meta as urlFlow } from "../../src/engine/rules/urlFlow.ts";

/** Every rule's meta, in the registry's order (`payload` is request, url, schema, form and result). */
export const ruleMetas: readonly RuleMeta[] = [
  ...revision,
  ...request,
  ...url,
  ...schema,
  ...form,
  ...result,
  ...capability,
  ...revisionFeature,
  ...tasks,
  ...delivery,
  ...lifecycle,
  ...mrtr,
  ...errors,
  ...notify,
  ...urlFlow,
  ...advisory,
  ...unchecked,
];

const byId = new Map(ruleMetas.map((meta) => [meta.id, meta]));

export const ruleMeta = (id: string): RuleMeta | undefined => byId.get(id);

/** The catalogue's explanation of a rule (its title in ../shared/rules.md). */
export const ruleTitle = (rule: string): string => ruleMeta(rule)?.title ?? rule;
