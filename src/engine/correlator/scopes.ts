import type { Scope } from "../model/scope.ts";

export function createScope(server: string, client: string, sessionId: string): Scope {
  return {
    server,
    client,
    sessionId,
    revision: null,
    caps: undefined,
    initialized: false,
    initializeSeen: false,
    clientRequests: new Map(),
  };
}

/** The scopes of one server + client: by Mcp-Session-Id ("" without one), and the latest session seen. */
interface ClientScopes {
  bySession: Map<string, Scope>;
  latestSession: Scope | undefined;
}

/**
 * Scopes by server → client → session, in nested Maps: the keys are strings the engine already holds, so no
 * lookup builds (and hashes) a concatenated key.
 */
export function createScopes() {
  const servers = new Map<string, Map<string, ClientScopes>>();

  const getOrCreate = (server: string, client: string, sessionId: string): Scope => {
    const scopes = clientScopes(server, client);
    let scope = scopes.bySession.get(sessionId);
    if (!scope) {
      scope = createScope(server, client, sessionId);
      scopes.bySession.set(sessionId, scope);
      if (sessionId) scopes.latestSession = scope;
    }
    return scope;
  };

  const clientScopes = (server: string, client: string): ClientScopes => {
    let clients = servers.get(server);
    if (!clients) servers.set(server, (clients = new Map()));
    let scopes = clients.get(client);
    if (!scopes) clients.set(client, (scopes = { bySession: new Map(), latestSession: undefined }));
    return scopes;
  };

  return {
    get: getOrCreate,
    /** The scope if it exists; never creates one. */
    find(server: string, client: string, sessionId: string): Scope | undefined {
      return servers.get(server)?.get(client)?.bySession.get(sessionId);
    },
    /** Latest session-bearing scope of a server + client, for GET streams whose records name no session. */
    latestSession(server: string, client: string): Scope | undefined {
      return servers.get(server)?.get(client)?.latestSession;
    },
  };
}
