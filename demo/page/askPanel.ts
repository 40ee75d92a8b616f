import type { Action, Answer, Ask, Asker, UrlAsk } from "./ask.ts";
import { renderFields } from "./form.ts";

/**
 * The question card: one ask at a time (a 2026-07-28 round may hold several, and two scenarios may ask at once),
 * so "Accept", "Decline" and "Cancel" are always the buttons of the question on screen. Server text goes in
 * with textContent; a URL is shown as text and opened only when the person clicks Open.
 */
export interface AskPanel {
  ask: Asker;
}

export type Note = (line: string) => void;

const el = <K extends keyof HTMLElementTagNameMap>(tag: K, text?: string): HTMLElementTagNameMap[K] => {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  return node;
};

const button = (name: string, onClick?: () => void): HTMLButtonElement => {
  const b = el("button", name);
  b.type = "button";
  if (onClick) b.addEventListener("click", onClick);
  return b;
};

/** http(s) only: a server could send `javascript:` or `file:` here. */
const openable = (url: string): URL | undefined => {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "http:" || parsed.protocol === "https:" ? parsed : undefined;
  } catch {
    return undefined;
  }
};

let cards = 0;

export function createAskPanel(root: HTMLElement, note: Note): AskPanel {
  const queue: { ask: Ask; settle(answer: Answer): void }[] = [];
  let showing = false;
  const idle = el("p", "No question from a server right now. Run a scenario.");
  idle.className = "idle";
  root.replaceChildren(idle);

  const next = (): void => {
    const item = queue.shift();
    if (!item) {
      showing = false;
      root.replaceChildren(idle);
      return;
    }
    showing = true;
    show(item.ask, item.settle);
  };

  const show = (ask: Ask, settle: (answer: Answer) => void): void => {
    const titleId = `ask-${++cards}`;
    const card = el("section");
    card.className = "ask";
    card.setAttribute("aria-labelledby", titleId);
    const origin = el("p", `${ask.origin} · ${ask.era} · ${ask.mode} mode`);
    origin.className = "origin";
    const title = el("h3", ask.mode === "form" ? ask.message : "The server asks you to open a page");
    title.id = titleId;
    card.append(origin, title);

    const form = el("form");
    form.setAttribute("aria-label", ask.mode === "form" ? "Answer" : "Consent");
    const fields = ask.mode === "form" ? renderFields(form, ask.requestedSchema) : undefined;
    if (ask.mode === "url") card.append(urlBlock(ask));

    const actions = el("div");
    actions.className = "actions";
    const finish = (answer: Answer): void => {
      settle(answer);
      if (ask.mode === "url" && answer.action === "accept" && ask.completed) {
        // 2025-11-25: the server reports completion later; keep Open at hand until it does.
        const waiting = el(
          "p",
          "Accepted. Waiting for the server to report that the page was completed… (open it if you have not)",
        );
        waiting.setAttribute("role", "status");
        actions.replaceChildren(
          waiting,
          button("Stop waiting", () => {
            ask.stopWaiting?.();
            next();
          }),
        );
        const done = (): void => void (card.isConnected && next());
        void ask.completed.then(done, done);
        return;
      }
      next();
    };
    const answerWith = (action: Action) => () => finish({ action });
    const accept = el("button", "Accept");
    accept.type = "submit";
    actions.append(accept, button("Decline", answerWith("decline")), button("Cancel", answerWith("cancel")));
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (!fields) return finish({ action: "accept" });
      const content = fields.read();
      if (content) finish({ action: "accept", content });
    });
    form.append(actions);
    card.append(form);
    root.replaceChildren(card);
    (form.querySelector("input, select") as HTMLElement | null)?.focus();
  };

  const urlBlock = (ask: UrlAsk): HTMLElement => {
    const block = el("div");
    block.className = "url";
    const target = openable(ask.url);
    const where = el("p", "Address: ");
    where.append(el("code", ask.url));
    const host = el("p", target ? `Site: ${target.host}` : "This is not an http(s) address: it will not be opened.");
    const open = button("Open", () => {
      if (target) window.open(target.href, "_blank", "noopener");
      note(`opened ${ask.url}`);
    });
    open.disabled = !target;
    block.append(el("p", ask.message), where, host, open);
    return block;
  };

  return {
    ask: (ask) =>
      new Promise<Answer>((resolve) => {
        queue.push({ ask, settle: resolve });
        if (!showing) next();
      }),
  };
}
