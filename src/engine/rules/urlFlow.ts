// The URL-mode rules that need more than one message (rules.md §3.6): elicitationIds reused within a session,
// and, on HAR captures (the page's other requests), a URL the page fetched before the user's consent and a URL
// that is the MCP server's own authorization endpoint.
import { originAndPath, originOf } from "../../capture/record.ts";
import type { UrlElicitation } from "../facts.ts";
import type { RuleMeta, RuleModule } from "../ruleKit/types.ts";

export const meta: readonly RuleMeta[] = [
  {
    id: "url-elicitation-id-unique",
    severity: "warning",
    severityNote: "warning",
    revisions: "2025-11-25",
    violator: "server",
    detection: "stateful",
    title: "One `elicitationId` reused for different elicitations",
    section: "3.6",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "url-no-prefetch",
    severity: "error",
    severityNote: "error (side-channel)",
    revisions: "2025-11-25, 2026-07-28",
    violator: "client",
    detection: "side-channel, heuristic",
    title: "URL fetched before the user consented",
    section: "3.6",
    spec: { revision: null, path: "client/elicitation" },
  },
  {
    id: "url-not-mcp-authorization",
    severity: "warning",
    severityNote: "warning (heuristic)",
    revisions: "2025-11-25, 2026-07-28",
    violator: "server",
    detection: "heuristic, stateful",
    title: "URL elicitation used for the MCP server's own authorization",
    section: "3.6",
    spec: { revision: null, path: "client/elicitation" },
  },
];

const trimSlash = (url: string): string => (url.endsWith("/") ? url.slice(0, -1) : url);

export const urlFlow: RuleModule = {
  meta,
  create({ report, on }) {
    /** url-not-mcp-authorization: origins of protected resources (PRM `resource`) → their authorization servers. */
    const protectedBy = new Map<string, Set<string>>();
    /** Authorization server issuer → origin + path of its `authorization_endpoint` (AS metadata). */
    const authorizeAt = new Map<string, string>();
    const reported = new WeakSet<UrlElicitation>();

    /** The elicitation's URL is the authorization endpoint of an authorization server of the MCP server itself. */
    function checkOwnAuthorization(entry: UrlElicitation): void {
      if (reported.has(entry) || entry.at === undefined || protectedBy.size === 0) return;
      const server = originOf(entry.flow.server);
      const issuers = server === undefined ? undefined : protectedBy.get(server);
      if (!issuers) return;
      for (const issuer of issuers) {
        if (authorizeAt.get(issuer) !== entry.at) continue;
        reported.add(entry);
        report({
          rule: "url-not-mcp-authorization",
          flow: entry.flow,
          revision: entry.flow.revision,
          record: entry.el.askRecord,
          pointer: `${entry.el.askPointer}/url`,
          message: `The URL is the authorization endpoint of ${issuer}, an authorization server of this MCP server (its Protected Resource Metadata): URL elicitation must not stand in for MCP authorization.`,
        });
        return;
      }
    }

    return {
      elicitationIdIssued({ ep, pointer: p, prior }) {
        if (prior && (prior.url !== ep.url || prior.message !== ep.message)) {
          report({
            rule: "url-elicitation-id-unique",
            pointer: `${p}/elicitationId`,
            message: `elicitationId "${String(ep.elicitationId)}" was already used for a different elicitation (record ${prior.record}).`,
          });
        }
      },
      urlElicitation({ entry }) {
        if (on("url-not-mcp-authorization")) checkOwnAuthorization(entry);
      },
      /**
       * OAuth metadata the page fetched (HAR imports). A Protected Resource Metadata document names the authorization
       * servers of its resource; an authorization server's metadata names its `authorization_endpoint`. Every URL
       * elicitation is checked again, as metadata may come after it.
       */
      pageRequest({ page, entries }) {
        const meta = page.metadata;
        if (!meta || !on("url-not-mcp-authorization")) return;
        let learned = false;
        if (meta.authorizationServers?.length) {
          const resource = originOf(meta.resource ?? page.url ?? "");
          if (resource !== undefined) {
            let issuers = protectedBy.get(resource);
            if (!issuers) protectedBy.set(resource, (issuers = new Set()));
            for (const issuer of meta.authorizationServers) issuers.add(trimSlash(issuer));
            learned = true;
          }
        }
        const endpoint =
          meta.authorizationEndpoint === undefined ? undefined : originAndPath(meta.authorizationEndpoint);
        if (meta.issuer !== undefined && endpoint !== undefined) {
          authorizeAt.set(trimSlash(meta.issuer), endpoint);
          learned = true;
        }
        if (learned) for (const list of entries.values()) for (const entry of list) checkOwnAuthorization(entry);
      },
      urlFetched({ page, entry, at }) {
        const answer =
          entry.el.action === null ? "before the user answered" : `after the user answered "${entry.el.action}"`;
        report({
          rule: "url-no-prefetch",
          pointer: "",
          message: `The page requested the elicitation's URL (${page.method} ${at}) ${answer}: the client must not fetch or open it without the user's consent (elicitation asked in record ${entry.el.askRecord}).`,
        });
      },
    };
  },
};
