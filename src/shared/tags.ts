/**
 * Constants every context shares: the envelope tags, the protocol version and the port names. Zod-free, so the
 * page tap can import it without pulling a validator into every page.
 */

/** Page tap → content relay: the envelope tag, and the type of the events that carry envelopes on the tap's channel. */
export const TAP_SOURCE = "mcp-elicitation-inspector/tap";
/** The one event on the window that hands the tap's private channel to the relay (src/page/emit.ts). */
export const TAP_CHANNEL = "mcp-elicitation-inspector/tap-channel";
/** Content relay → page tap, on the tap's private channel: the decode rules' URL patterns (src/page/decoders.ts). */
export const TAP_DECODERS = "mcp-elicitation-inspector/tap-rules";
/**
 * Content relay → page tap, on the tap's private channel: whether the worker records this frame (`detail` "on" or
 * "off"). A tap sends nothing while off (src/page/emit.ts); every document starts on, so a reload with DevTools
 * open is recorded from its first request.
 */
export const TAP_RECORDING = "mcp-elicitation-inspector/tap-recording";
/** Content relay → worker. */
export const CONTENT_SOURCE = "mcp-elicitation-inspector/content";
/** Panel → worker. */
export const PANEL_SOURCE = "mcp-elicitation-inspector/panel";
/** Worker → content relay and panel. */
export const WORKER_SOURCE = "mcp-elicitation-inspector/worker";

/** The version of every envelope; a context that meets another version drops the message and counts it. */
export const PROTOCOL_VERSION = 1;

export const CONTENT_PORT = "mcp-elicit/content";
export const PANEL_PORT = "mcp-elicit/panel";

/** The tap's size cap per message text (characters); longer texts are cut and marked `truncated`. */
export const MESSAGE_CAP = 1 << 20;

/**
 * How every envelope of the tap begins: the tap writes its JSON text so (src/page/emit.ts). The relay checks this
 * prefix and forwards the text as it is; the worker parses and validates it (contentProtocol.ts
 * `tapEnvelopeRecords`), so no parsing or schema check runs on the page's thread.
 */
export const TAP_ENVELOPE_PREFIX = `{"source":${JSON.stringify(TAP_SOURCE)},"v":${PROTOCOL_VERSION},"kind":"records","records":`;
/** Most items one relay → worker message may carry (contentProtocol.ts); a bigger batch is refused whole. */
export const MAX_BATCH = 5000;
/** Longest envelope text the relay forwards (characters); a runtime message may not exceed 64 MiB. */
export const MAX_ENVELOPE_CHARS = 16 * 2 ** 20;

/**
 * The storage.local key of the decoders ("Decode as…"): written by the worker, read by every relay; the name older
 * builds wrote, so decoders saved by them are still read.
 */
export const DECODERS_KEY = "decodeRules";
/** storage.local key of the engine settings (rule levels, strict profile): a configuration file's value. */
export const SETTINGS_KEY = "settings";
/** storage.local: the sites recorded without DevTools (src/background/recording.ts). */
export const RECORD_SITES_KEY = "recordSites";
/** storage.session: the tabs DevTools is open on, kept across worker restarts. */
export const INSPECTED_KEY = "inspectedTabs";
/** Most decode rules kept; every frame matches each request of a rule-less kind against all of them. */
export const MAX_DECODE_RULES = 64;
/** Longest URL pattern of a decode rule (characters). */
export const MAX_RULE_URL = 2048;
