// The registry: every rule module, in the order their checks run on a fact (a finding's place in the output
// follows it). A new rule is a module here and a test file under test/.
import { advisory } from "./advisory.ts";
import { capability } from "./capability.ts";
import { delivery } from "./delivery.ts";
import { errors } from "./errors.ts";
import { lifecycle } from "./lifecycle.ts";
import { mrtr } from "./mrtr/index.ts";
import { notify } from "./notify.ts";
import { payload } from "./payload.ts";
import { revision } from "./revision.ts";
import { revisionFeature } from "./revisionFeature.ts";
import { tasks } from "./tasks.ts";
import type { RuleMeta, RuleModule } from "./types.ts";
import { unchecked } from "./unchecked.ts";
import { urlFlow } from "./urlFlow.ts";

export const registry: readonly RuleModule[] = [revision, payload, capability, revisionFeature, tasks, delivery, lifecycle, mrtr, errors, notify, urlFlow, advisory, unchecked];

/** Every rule of the registry, module by module. */
export const rules: readonly RuleMeta[] = registry.flatMap((m) => m.meta);

const byId = new Map(rules.map((r) => [r.id, r]));
export const ruleMeta = (id: string): RuleMeta | undefined => byId.get(id);

export { notChecked } from "./unchecked.ts";
