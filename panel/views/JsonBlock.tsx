import { useEffect, useMemo, useRef, useState } from "preact/hooks";
import { parseJson, prettyJson } from "../model/json.ts";
import { escapeInvisible } from "../model/text.ts";

/** Longest text pretty-printed; longer messages (up to the tap's 1 MiB) are shown as sent. */
const PRETTY_MAX = 256 * 1024;

/**
 * A captured message as pretty JSON, as text only, with the value at `pointer` highlighted and scrolled to (a
 * finding's evidence), and a Copy button. Text that is not JSON is shown as it travelled.
 */
export function JsonBlock({ text, pointer, label }: { text: string; pointer?: string | undefined; label: string }) {
  const pretty = useMemo(() => {
    if (text.length > PRETTY_MAX)
      return { text: escapeInvisible(text), note: "Large message: shown as sent, not pretty-printed." };
    const parsed = parseJson(text);
    if (!parsed.ok) return { text: escapeInvisible(text), note: `Not JSON (${parsed.error}): shown as sent.` };
    return prettyJson(parsed.value, pointer);
  }, [text, pointer]);
  const mark = useRef<HTMLElement>(null);
  useEffect(() => mark.current?.scrollIntoView({ block: "center" }), [pretty]);
  const range = "range" in pretty ? pretty.range : undefined;
  const missing = pointer !== undefined && !range && !("note" in pretty);
  return (
    <div class="json">
      <div class="json-bar">
        {"note" in pretty && <span class="note">{pretty.note}</span>}
        {missing && <span class="note">The evidence path {pointer} is not in this message.</span>}
        <CopyButton text={pretty.text} label={`Copy ${label}`} />
      </div>
      <pre aria-label={label} tabIndex={0}>
        {range ? (
          <>
            {pretty.text.slice(0, range[0])}
            <mark ref={mark} aria-label={`evidence at ${pointer}`}>
              {pretty.text.slice(range[0], range[1])}
            </mark>
            {pretty.text.slice(range[1])}
          </>
        ) : (
          pretty.text
        )}
      </pre>
    </div>
  );
}

export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<"" | "copied" | "failed">("");
  const copy = async () => {
    setState((await copyText(text)) ? "copied" : "failed");
    setTimeout(() => setState(""), 1500);
  };
  return (
    <button type="button" class="copy" aria-label={label} onClick={() => void copy()}>
      {state === "copied" ? "Copied" : state === "failed" ? "Copy failed" : "Copy"}
    </button>
  );
}

/**
 * The Clipboard API is refused inside DevTools' panel frame (no clipboard-write permission policy there), so the
 * old textarea + execCommand route is the fallback.
 */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.append(area);
    area.select();
    const ok = document.execCommand("copy");
    area.remove();
    return ok;
  }
}
