import { redactRecords } from "../../src/capture/redact.ts";
import { ruleMeta } from "../../src/engine/ruleKit/rules.ts";
import { JsonBlock } from "./JsonBlock.tsx";
import { RuleText } from "./RuleText.tsx";
import type { FlowStore } from "../state/store.ts";
import { shown } from "../model/text.ts";

const SPEC_ORIGIN = "https://modelcontextprotocol.io/";

/** The selected finding: its message, the catalogue's explanation, the spec link and the evidence. */
export function FindingDetail({ store, onEvidence }: { store: FlowStore; onEvidence(): void }) {
  const id = store.selectedFindingId.value;
  const finding = id === null ? undefined : store.finding(id);
  if (!finding) return <p class="empty">Select a finding to read the rule behind it and jump to its evidence.</p>;
  const meta = ruleMeta(finding.rule);
  const evidence = store.record(finding.record);
  return (
    <div class="finding-detail" aria-label={`details of finding ${finding.id}`}>
      <h3>
        <span class={`sev ${finding.severity}`}>{finding.severity}</span> {finding.rule}
      </h3>
      <p>{shown(store.findingText(finding), 4000)}</p>
      {meta && (
        <p class="explain">
          <RuleText text={meta.title} />
        </p>
      )}
      <dl>
        {meta && (
          <>
            <dt>Who breaks it</dt>
            <dd>{meta.violatorNote ?? meta.violator}</dd>
            <dt>Revisions</dt>
            <dd>{meta.revisions}</dd>
          </>
        )}
        <dt>Spec</dt>
        <dd>
          {/* Made by the engine from the catalogue, never from captured data; only the spec's own site is a link. */}
          {finding.spec.startsWith(SPEC_ORIGIN) ? (
            <a href={finding.spec} target="_blank" rel="noreferrer">
              {finding.spec}
            </a>
          ) : (
            shown(finding.spec)
          )}
        </dd>
        <dt>Evidence</dt>
        <dd>
          record #{finding.record}
          {finding.entry !== finding.record ? ` (HAR entry ${finding.entry})` : ""} at{" "}
          <code>{shown(finding.pointer || "/", 300)}</code>{" "}
          {finding.flow !== null && (
            <button type="button" onClick={onEvidence}>
              Show evidence
            </button>
          )}
        </dd>
      </dl>
      {/* A finding about the session (no flow) has no flow detail to jump to: its evidence is shown here. */}
      {finding.flow === null && evidence?.kind === "message" && (
        <JsonBlock
          text={(redactRecords([evidence])[0] as typeof evidence).text}
          pointer={finding.pointer}
          label={`message ${finding.record}`}
        />
      )}
    </div>
  );
}
