import { CAPTURE_VERSION, originAndPath } from "../record.ts";
import type { CaptureRecord, PageRequestRecord } from "../record.ts";

type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === "object" && x !== null && !Array.isArray(x);
const str = (x: unknown): string | undefined => (typeof x === "string" ? x : undefined);

/**
 * An entry that carried no MCP: a `page-request` record with its method and its URL's origin and path only (no
 * query, fragment, headers or bodies), at its start — what `url-no-prefetch` needs. Entries with an unreadable date
 * or a URL that is not http(s) make none.
 */
export function pageRequest(
  raw: Obj,
  index: number,
  url: string,
  method: string,
  creator: string,
  drafts: CaptureRecord[],
  body: () => string | undefined,
): number | undefined {
  const start = Date.parse(str(raw.startedDateTime) ?? "");
  const at = originAndPath(url);
  if (Number.isNaN(start) || at === undefined) return undefined;
  const metadata = OAUTH_METADATA.test(at) ? oauthMetadata(body()) : undefined;
  drafts.push({
    v: CAPTURE_VERSION,
    seq: 0,
    time: start,
    transport: "http",
    url: at,
    client: str(raw.pageref) ?? creator,
    entry: index,
    kind: "page-request",
    method,
    ...(metadata && { metadata }),
  } satisfies PageRequestRecord);
  return start;
}

/** The well-known paths of OAuth metadata (RFC 9728 §3, RFC 8414 §3, OpenID Connect Discovery), path suffixes included. */
const OAUTH_METADATA =
  /\/\.well-known\/(oauth-protected-resource|oauth-authorization-server|openid-configuration)(\/|$)/;

/** The public fields `url-not-mcp-authorization` needs from a metadata document's JSON; undefined if none. */
function oauthMetadata(text: string | undefined): PageRequestRecord["metadata"] {
  if (text === undefined) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObj(doc)) return undefined;
  const servers = Array.isArray(doc.authorization_servers)
    ? doc.authorization_servers.filter((s): s is string => typeof s === "string").slice(0, 32)
    : undefined;
  const out: NonNullable<PageRequestRecord["metadata"]> = {
    ...(typeof doc.resource === "string" && { resource: doc.resource }),
    ...(servers?.length && { authorizationServers: servers }),
    ...(typeof doc.issuer === "string" && { issuer: doc.issuer }),
    ...(typeof doc.authorization_endpoint === "string" && { authorizationEndpoint: doc.authorization_endpoint }),
  };
  return Object.keys(out).length > 0 ? out : undefined;
}
