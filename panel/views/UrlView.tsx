import { CopyButton } from "./JsonBlock.tsx";
import { outcomeOf } from "../model/outcome.ts";
import type { FlowView } from "../state/store.ts";
import { shown } from "../model/text.ts";
import { urlInfo } from "../model/urlInfo.ts";

/**
 * URL-mode questions: the full URL as text with its domain highlighted, and warnings for what can deceive (an IDN
 * in punycode, credentials before "@", bidi controls, odd schemes). Never a link, never fetched.
 */
export function UrlView({ view }: { view: FlowView }) {
  const flow = view.flow;
  const urls = flow.elicitations.filter((e) => e.mode === "url");
  if (urls.length === 0) return <p class="empty">This flow asked no URL-mode questions.</p>;
  return (
    <div class="urls">
      {urls.map((el) => {
        const info = urlInfo(el.url);
        const full = info.before + info.host + info.after;
        const outcome = outcomeOf(el, flow, view.record);
        return (
          <section key={`${el.round}/${el.key}`} class="url-card" aria-label={`url ${el.key}`}>
            <p class="question">{shown(el.message, 2000)}</p>
            <p class="url-line">
              <code class="url" aria-label="URL (text, not a link)">
                {info.before}
                {info.host !== "" && (
                  <strong class="domain" aria-label="domain">
                    {info.host}
                  </strong>
                )}
                {info.after}
              </code>
              <CopyButton text={full} label={`Copy URL ${el.key}`} />
            </p>
            <dl>
              {info.hostname !== undefined && (
                <>
                  <dt>Domain the browser resolves</dt>
                  <dd>{info.hostname}</dd>
                </>
              )}
              {info.unicodeHost !== undefined && (
                <>
                  <dt>Shown to users as</dt>
                  <dd>{info.unicodeHost}</dd>
                </>
              )}
              {el.elicitationId !== undefined && (
                <>
                  <dt>elicitationId</dt>
                  <dd>{shown(el.elicitationId, 200)}</dd>
                </>
              )}
              <dt>Answer</dt>
              <dd>
                {outcome.kind === "completed" ? "none on the wire" : outcome.text}
                {el.completed ? " · completed" : " · not completed"}
              </dd>
            </dl>
            {info.warnings.length > 0 && (
              <ul class="warnings" aria-label="URL warnings">
                {info.warnings.map((w) => (
                  <li key={w}>⚠ {w}</li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}
