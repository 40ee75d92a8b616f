import { roundSteps, type Echo } from "../model/roundDiff.ts";
import type { FlowStore, FlowView } from "../state/store.ts";
import { shown } from "../model/text.ts";

const echoText = (echo: Echo, mask: (v: unknown) => unknown): { text: string; ok: boolean } => {
  switch (echo.kind) {
    case "exact":
      return { text: "requestState echoed exactly", ok: true };
    case "none":
      return { text: "no requestState sent by the server, none echoed", ok: true };
    case "missing":
      return { text: `requestState not echoed (the server sent ${shown(mask(echo.sent), 80)})`, ok: false };
    case "unsolicited":
      return { text: `requestState ${shown(mask(echo.echoed), 80)} echoed although the server sent none`, ok: false };
    case "changed":
      return {
        text: `requestState changed: the server sent ${shown(mask(echo.sent), 80)}, the retry carried ${shown(mask(echo.echoed), 80)}`,
        ok: false,
      };
  }
};

/**
 * Multi round-trip requests: what the client changed between rounds besides `inputResponses` and
 * `requestState` (a retry must repeat its request), and whether the state the server handed out came back exactly.
 */
export function RoundDiff({ view, store }: { view: FlowView; store: FlowStore }) {
  // Compared as captured (a masked state would look echoed whatever came back), quoted masked.
  const steps = roundSteps(view.flow, store.record);
  const mask = view.value;
  if (steps.length === 0)
    return (
      <p class="empty">
        One round only: nothing to compare. Multi round-trip flows (2026-07-28) and -32042 retries show each retry
        against the request before it.
      </p>
    );
  return (
    <ol class="rounds">
      {steps.map((step) => {
        const echo = echoText(step.echo, mask);
        return (
          <li
            key={step.round.index}
            class="round-step"
            aria-label={`round ${step.previous.index} to ${step.round.index}`}
          >
            <h4>
              Round {step.previous.index} → {step.round.index}
            </h4>
            <p class={echo.ok ? "ok" : "warn"} role={echo.ok ? undefined : "note"}>
              {echo.ok ? "✓ " : "⚠ "}
              {echo.text}
            </p>
            <p>inputResponses: {step.answered.length ? step.answered.map((k) => shown(k, 60)).join(", ") : "none"}</p>
            {!step.readable ? (
              <p class="warn">A request of these rounds could not be read (not JSON, cut, or not captured).</p>
            ) : step.changes.length === 0 ? (
              <p class="ok">✓ Nothing else changed: the retry repeats the request.</p>
            ) : (
              <table class="diff" aria-label={`changes in round ${step.round.index}`}>
                <thead>
                  <tr>
                    <th scope="col">Path</th>
                    <th scope="col">Change</th>
                    <th scope="col">Round {step.previous.index}</th>
                    <th scope="col">Round {step.round.index}</th>
                  </tr>
                </thead>
                <tbody>
                  {step.changes.map((c) => (
                    <tr key={c.pointer} class={c.kind}>
                      <td>{shown(c.pointer, 200)}</td>
                      <td>{c.kind}</td>
                      <td>{c.kind === "added" ? "" : shown(mask(c.before), 300)}</td>
                      <td>{c.kind === "removed" ? "" : shown(mask(c.after), 300)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </li>
        );
      })}
    </ol>
  );
}
