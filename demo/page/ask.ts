/**
 * What the page shows a person when a server asks, in one shape for both protocol eras. Everything in here
 * comes from a server: it is untrusted text, rendered with textContent only.
 */
export type Era = "2025-11-25" | "2026-07-28";

export type Action = "accept" | "decline" | "cancel";
export type FieldValue = string | number | boolean | string[];

// A type alias, not an interface: the SDKs' ElicitResult has an index signature, which only aliases satisfy.
export type Answer = {
  action: Action;
  content?: Record<string, FieldValue>;
};

/** The restricted JSON Schema of a form ask, kept loose on purpose: a hostile server may send anything. */
export interface RequestedSchema {
  properties?: Record<string, unknown>;
  required?: unknown;
}

interface AskBase {
  era: Era;
  /** The scenario (and so the tool, prompt or resource) the question belongs to. */
  origin: string;
  message: string;
}

export interface FormAsk extends AskBase {
  mode: "form";
  requestedSchema: RequestedSchema;
}

export interface UrlAsk extends AskBase {
  mode: "url";
  url: string;
  elicitationId?: string;
  /**
   * 2025-11-25 only: settles when `notifications/elicitation/complete` arrives for this elicitationId. The card
   * stays up after Accept until then, keeping the Open button at hand.
   */
  completed?: Promise<void>;
  /** The person gave up waiting for `completed`: the host ends the call rather than hang. */
  stopWaiting?: () => void;
}

export type Ask = FormAsk | UrlAsk;

/** Renders one ask at a time and resolves with the person's answer. */
export type Asker = (ask: Ask) => Promise<Answer>;

export const describeAnswer = (answer: Answer): string =>
  `${answer.action}${answer.content ? ` ${JSON.stringify(answer.content)}` : ""}`;
