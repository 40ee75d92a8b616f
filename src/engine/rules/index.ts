// The registry: every rule module with its checks, in the order of metas.ts, which is the order their checks run
// on a fact (a finding's place in the output follows it). A new rule is a module here, its meta in metas.ts, and a
// test file under test/.
import { advisory } from "./advisory.ts";
import { capability } from "./capability.ts";
import { delivery } from "./delivery.ts";
import { errors } from "./errors.ts";
import { lifecycle } from "./lifecycle.ts";
import { moduleMetas, type ModuleName } from "./metas.ts";
import { mrtr } from "./mrtr/index.ts";
import { notify } from "./notify.ts";
import { payload } from "./payload.ts";
import { relay } from "./relay.ts";
import { revision } from "./revision.ts";
import { revisionFeature } from "./revisionFeature.ts";
import { tasks } from "./tasks.ts";
import type { RuleModule } from "./types.ts";
import { unchecked } from "./unchecked.ts";
import { urlFlow } from "./urlFlow.ts";

/** Each module metas.ts names, with its checks (the type holds the two to the same names). */
const modules: Record<ModuleName, RuleModule> = { revision, payload, capability, revisionFeature, tasks, delivery, lifecycle, mrtr, errors, notify, urlFlow, relay, advisory, unchecked };

export const registry: readonly RuleModule[] = (Object.keys(moduleMetas) as ModuleName[]).map((name) => modules[name]);

export { ruleMeta, rules } from "./metas.ts";
export { notChecked } from "./unchecked.ts";
