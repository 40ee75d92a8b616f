// Every rule, and a rule's meta by its id, read from the generated metas.ts (no check in it: the panel reads these).
import { moduleMetas } from "./metas.ts";
import type { RuleId } from "./ruleIds.ts";
import type { RuleMeta } from "./types.ts";

/** Every rule, module by module, in registry order. */
export const rules: readonly RuleMeta[] = Object.values(moduleMetas).flat();

const byId = new Map<string, RuleMeta>(rules.map((r) => [r.id, r]));
export const ruleMeta = (id: string): RuleMeta | undefined => byId.get(id);

/** Whether `id` names a rule of this build (`--disable`, a config file, an imported finding). */
export const isRuleId = (id: string): id is RuleId => byId.has(id);

/** The catalogue's explanation of a rule (its title in docs/catalogue.md), or the id of a rule this build lacks. */
export const ruleTitle = (id: string): string => byId.get(id)?.title ?? id;
