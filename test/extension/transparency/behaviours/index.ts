import { envelopeBehaviours } from "./envelopes.ts";
import { errorBehaviours } from "./errors.ts";
import { eventSourceBehaviours } from "./eventSource.ts";
import { fetchBodies } from "./fetchBodies.ts";
import { fetchStreams } from "./fetchStreams.ts";
import { identityBehaviours } from "./identity.ts";
import type { Behaviour } from "./kit.ts";
import { pageCodeBehaviours } from "./pageCode.ts";
import { postMessageBehaviours } from "./postMessage.ts";
import { webSocketBehaviours } from "./webSocket.ts";
import { xhrBehaviours } from "./xhr.ts";

export type { Behaviour, Ctx, McpTraffic, Observed } from "./kit.ts";

/** The battery, in the order it runs. Importing this module runs no page code: Node reads names and metadata. */
export const behaviours: Behaviour[] = [
  ...identityBehaviours,
  ...fetchBodies,
  ...fetchStreams,
  ...xhrBehaviours,
  ...eventSourceBehaviours,
  ...webSocketBehaviours,
  ...postMessageBehaviours,
  ...envelopeBehaviours,
  ...errorBehaviours,
  ...pageCodeBehaviours,
];
