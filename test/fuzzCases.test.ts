import { test } from "node:test";
import { checkInput } from "./fuzz/properties.ts";

/**
 * Inputs the fuzz properties once failed on, kept as fixed cases so they are checked in every run whatever the
 * bounded fuzz happens to reach.
 */
test("fuzz case: a completion earlier on a stream than the elicitation that issues its id (HAR order must keep the stream's own order for export → import to be a fixed point)", () => {
  checkInput({ format: "har", text: "{\"log\":{\"version\":\"1.2\",\"creator\":{\"name\":\"fuzz\",\"version\":\"1\"},\"entries\":[{\"startedDateTime\":\"2026-01-01T00:00:00.000Z\",\"time\":10,\"request\":{\"method\":\"POST\",\"url\":\"http://127.0.0.1:3000/mcp\",\"headers\":[{\"name\":\"Mcp-Session-Id\",\"value\":\"s1\"},{\"name\":\"Content-Type\",\"value\":\"application/json\"}],\"postData\":{\"mimeType\":\"application/json\",\"text\":\"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":1,\\\"method\\\":\\\"tools/call\\\",\\\"params\\\":{\\\"name\\\":\\\"deploy\\\",\\\"arguments\\\":{}}}\"}},\"response\":{\"status\":200,\"headers\":[{\"name\":\"Content-Type\",\"value\":\"text/event-stream\"}],\"content\":{\"size\":420,\"mimeType\":\"text/event-stream\",\"text\":\"data:{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"method\\\":\\\"notifications/elicitation/complete\\\",\\\"params\\\":{\\\"elicitationId\\\":\\\"e1\\\"}}\\n\\ndata:{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":0,\\\"method\\\":\\\"elicitation/create\\\",\\\"params\\\":{\\\"mode\\\":null,\\\"message\\\":\\\"Connect your account\\\",\\\"url\\\":\\\"ghp_PLANTEDsecret0123456789abcdefABCDEF0\\\",\\\"elicitationId\\\":\\\"e1\\\"}}\\n\\ndata:{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"id\\\":0,\\\"result\\\":{\\\"protocolVersion\\\":\\\"2025-06-18\\\",\\\"capabilities\\\":{},\\\"serverInfo\\\":{\\\"name\\\":\\\"s\\\",\\\"version\\\":\\\"1\\\"}}}\\n\\n\"}},\"timings\":{\"send\":1,\"wait\":5,\"receive\":4}}]}}" });
});
