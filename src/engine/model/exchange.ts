import type { MessageRecord } from "../../capture/record.ts";
import type { Revision } from "../../protocol/revision.ts";
import type { Flow } from "../flow.ts";
import type { Scope, StreamEvent } from "./scope.ts";

/** HTTP exchange state the rules need (status arrives before the body; the request before both). */
export interface Exchange {
  id: string;
  scope: Scope | undefined;
  requestHeaders: MessageRecord["headers"];
  responseHeaders: MessageRecord["headers"];
  status: number | undefined;
  emptyBody: boolean | undefined;
  /** ids (idKey) of the client requests this POST carried. */
  requestIds: string[];
  /** Record of a POSTed ElicitResult, for del-r12-response-202, and its flow (judged when the status arrives). */
  elicitResultRecord: number | undefined;
  elicitResultFlow: Flow | undefined;
  /** Revision of the request a POST carried: notifications on its stream take it (rules.md §1.2 step 6). */
  revision: Revision | undefined;
  /** A GET stream that resumes a POST stream: that POST's exchange id. */
  resumedOf: string | undefined;
  /** The stream's last SSE event, as filed in its scope's `streamEvents`. */
  lastEvent: StreamEvent | undefined;
  /** Whether a message came on it. */
  carried: boolean;
}

/** What a message handler knows about the message in hand. */
export interface MessageContext {
  record: MessageRecord;
  /** Pointer prefix of this message inside the record's text ("" or "/<n>" in a batch). */
  at: string;
  exchange: Exchange | undefined;
  scope: Scope;
}
