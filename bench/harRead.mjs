// The CLI bench's comparison process (bench/engine.ts): reads a HAR and parses it and every MCP message in it the way a
// plain script would — readFile, JSON.parse of the HAR, then JSON.parse of each JSON request body, each line of a JSON
// response and each SSE event's data (a page's HTML, scripts and images are not JSON and are left alone) — and does
// nothing else. `node bench/harRead.mjs capture.har` prints how many JSON texts it parsed.
import { readFileSync } from "node:fs";

const har = JSON.parse(readFileSync(process.argv[2], "utf8"));
let messages = 0;
const parse = (text) => {
  JSON.parse(text);
  messages++;
};
for (const entry of har.log.entries) {
  const body = entry.request.postData?.text;
  if (body && entry.request.postData.mimeType?.includes("json")) parse(body);
  const content = entry.response.content;
  if (!content?.text) continue;
  if (content.mimeType.includes("event-stream")) {
    for (const event of content.text.split("\n\n")) {
      const data = event
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trimStart())
        .join("\n");
      if (data) parse(data);
    }
  } else if (content.mimeType.includes("json")) for (const line of content.text.split("\n")) if (line) parse(line);
}
for (const record of har.log._mcpRecords ?? []) if (typeof record.text === "string" && record.text) parse(record.text);
console.log(messages);
