// The registry: every rule module, in the order its checks run on a fact (a finding's place in the output follows
// it). A new rule module is one line here; `npm run rules` then writes metas.ts, ruleIds.ts and docs/rules.md's
// table from it (docs/rules.md, "Adding a rule").
import { advisory } from "../rules/advisory.ts";
import { capability } from "../rules/capability.ts";
import { delivery } from "../rules/delivery.ts";
import { errors } from "../rules/errors.ts";
import { lifecycle } from "../rules/lifecycle.ts";
import { mrtr } from "../rules/mrtr/index.ts";
import { notify } from "../rules/notify.ts";
import { payload } from "../rules/payload.ts";
import { relay } from "../rules/relay.ts";
import { revision } from "../rules/revision.ts";
import { revisionFeature } from "../rules/revisionFeature.ts";
import { tasks } from "../rules/tasks.ts";
import { unchecked } from "../rules/unchecked.ts";
import { urlFlow } from "../rules/urlFlow.ts";
import type { RuleModule } from "./types.ts";

/** Each module by its name: its file is `src/engine/rules/<name>.ts`, or `<name>/index.ts` for a folder. */
export const modules = {
  revision,
  payload,
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
} satisfies Record<string, RuleModule>;

export type ModuleName = keyof typeof modules;

export const registry: readonly RuleModule[] = Object.values(modules);
