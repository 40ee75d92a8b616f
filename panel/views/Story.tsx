import type { Elicitation, Flow } from "../../src/engine/index.ts";
import type { Relay } from "../../src/engine/flow.ts";
import { viaText } from "../model/flowFacts.ts";
import { FindingNotes } from "./FormPreview.tsx";
import { outcomeOf, type RecordOf } from "../model/outcome.ts";
import type { FlowStore, FlowView } from "../state/store.ts";
import { duration, shown } from "../model/text.ts";

const KIND: Record<string, string> = {
  "server-request": "the server sent elicitation/create while the request was open (2025 eras)",
  "url-required-error": "the request failed with -32042 (URL elicitation required), then was retried",
  mrtr: "multi round-trip request: input_required results answered by retries (2026-07-28)",
  "fallback-tool": "a tool result asked for input in _meta (fallback pattern)",
  relay:
    "an app relayed an elicitation to its page in its own shape (a hosted agent; add its backend to see the server's side)",
};

/**
 * The flow told in plain words, round by round: what the client asked, what the server asked the user, how long
 * the user took and what they answered, and how it ended — the whole story without reading JSON.
 */
export function Story({ view, store }: { view: FlowView; store: FlowStore }) {
  const flow = view.flow;
  const at = (t: number | undefined) => (t === undefined ? "" : `+${duration(Math.max(0, t - flow.startedAt))}`);
  const findings = store.findingsOf(flow.id);
  const via = viaText(flow, store.decoders.value);
  return (
    <div class="story">
      <p>
        {shown(flow.method)} {flow.target !== null && <strong>{shown(flow.target, 200)}</strong>} on{" "}
        <code>{shown(flow.server, 300)}</code>
        {via && <> ({via})</>} — {KIND[flow.kind] ?? flow.kind}.
      </p>
      <p>
        Era <strong>{flow.revision ?? "unknown"}</strong>, status{" "}
        <strong class={`status ${flow.status}`}>{flow.status}</strong>, {flow.rounds.length} round
        {flow.rounds.length === 1 ? "" : "s"}; waited on the user <strong>{duration(flow.userMs)}</strong>, on the
        server <strong>{duration(flow.serverMs)}</strong>.
      </p>
      {flow.joinedInto !== undefined && (
        <p>Joined with the agent backend's flow {flow.joinedInto}, which tells it whole.</p>
      )}
      {flow.rounds.length === 0 && (
        <ul>
          {flow.elicitations.map((e) => (
            <Question key={e.key} e={e} flow={flow} record={view.record} at={at} />
          ))}
        </ul>
      )}
      <ol class="story-rounds">
        {flow.rounds.map((round) => {
          const asked = flow.elicitations.filter((e) => e.round === round.index);
          return (
            <li key={round.index}>
              <div>
                <strong>Round {round.index}</strong> {at(round.sentAt)}: the client sent the request (record #
                {round.requestRecord}
                {round.echoedState !== undefined ? ", echoing requestState" : ""}).
              </div>
              {asked.length > 0 && (
                <ul>
                  {asked.map((e) => (
                    <Question key={e.key} e={e} flow={flow} record={view.record} at={at} />
                  ))}
                </ul>
              )}
              <div>
                {round.outcome === null
                  ? flow.status === "pending"
                    ? "Waiting for the server…"
                    : "No answer from the server was seen."
                  : round.outcome === "input_required"
                    ? `${at(round.answeredAt)}: the server answered input_required${round.requestState !== undefined ? " with a requestState" : ""}.`
                    : round.outcome === "complete"
                      ? `${at(round.answeredAt)}: the server completed the request.`
                      : `${at(round.answeredAt)}: the server answered with an error.`}
              </div>
            </li>
          );
        })}
      </ol>
      {findings.length > 0 ? (
        <>
          <h4>Findings of this flow</h4>
          <FindingNotes findings={findings} store={store} />
        </>
      ) : (
        <p class="ok">✓ No findings for this flow.</p>
      )}
    </div>
  );
}

function Question({
  e,
  flow,
  record,
  at,
}: {
  e: Elicitation;
  flow: Flow;
  record: RecordOf;
  at(t: number | undefined): string;
}) {
  const outcome = outcomeOf(e, flow, record);
  const fields =
    e.mode === "form" && typeof e.schema === "object" && e.schema !== null
      ? Object.keys((e.schema as { properties?: object }).properties ?? {})
      : [];
  return (
    <li>
      {at(e.askedAt)}: the server asked ({e.mode} mode) “{shown(e.message, 300)}”
      {fields.length > 0 && ` for ${fields.map((f) => shown(f, 40)).join(", ")}`}
      {e.mode === "url" && typeof e.url === "string" && (
        <>
          {" "}
          to visit <code>{shown(e.url, 300)}</code>
        </>
      )}
      .{" "}
      {outcome.kind === "error" ? (
        <>
          {at(e.answeredAt)}: the client answered with <strong class="outcome-error">{outcome.text}</strong>
          {outcome.message !== undefined && <> (“{shown(outcome.message, 200)}”)</>} instead of asking the user: no time
          on the user.
        </>
      ) : e.action === null ? (
        outcome.kind === "waiting" ? (
          "Waiting for the answer…"
        ) : (
          "No answer was seen."
        )
      ) : (
        <>
          After <strong>{duration((e.answeredAt ?? e.askedAt) - e.askedAt)}</strong> the user chose{" "}
          <strong class={`action ${e.action}`}>{shown(e.action, 40)}</strong>
          {e.content !== undefined && <> with {shown(e.content, 300)}</>}.
        </>
      )}
      {e.mode === "url" && (e.completed ? " Completion seen." : " No completion seen.")}
      {e.relay !== undefined && <RelayNote e={e} relay={e.relay} backend={flow.source === "backend"} />}
    </li>
  );
}

/** The page's side of a hosted agent's ask: when the page got it, what the user answered there, when the server got it. */
function RelayNote({ e, relay, backend }: { e: Elicitation; relay: Relay; backend: boolean }) {
  const how = relay.id === undefined ? shown(relay.shape, 60) : `${shown(relay.shape, 60)} ${shown(relay.id, 60)}`;
  return (
    <div class="relay">
      {backend ? (
        <>
          The agent relayed it to the page ({how})
          {relay.askMs !== undefined && (
            <>
              {" "}
              <strong>{duration(Math.max(0, relay.askMs))}</strong> after it got it
            </>
          )}
          {relay.joinedBy !== undefined && (
            <>
              , joined by {relay.joinedBy}
              {relay.inferred ? " (a guess)" : ""}
            </>
          )}
          .{" "}
        </>
      ) : (
        <>The page received it as {how}. </>
      )}
      {relay.action === undefined ? (
        "The user has not answered in the page."
      ) : (
        <>
          In the page the user chose <strong class={`action ${relay.action}`}>{shown(relay.action, 40)}</strong>
          {relay.content !== undefined && <> with {shown(relay.content, 300)}</>}
          {backend &&
            (relay.answerMs !== undefined ? (
              <>
                ; the server got {e.action === relay.action ? "it" : <strong>“{shown(e.action, 40)}”</strong>}{" "}
                <strong>{duration(Math.max(0, relay.answerMs))}</strong> later
              </>
            ) : (
              "; the server has not got it"
            ))}
          .
        </>
      )}
    </div>
  );
}
