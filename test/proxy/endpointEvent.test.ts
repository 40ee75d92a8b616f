import assert from "node:assert/strict";
import { test } from "node:test";
import { createEndpointRewriter } from "../../src/cli/proxy/endpointEvent.ts";
import { createRoutes } from "../../src/cli/proxy/routes.ts";

/** The HTTP+SSE `endpoint` event, rewritten however the bytes are cut; nothing else touched. */
const routes = createRoutes([{ name: "up", url: new URL("http://10.0.0.5:3001/sse") }], () => "http://127.0.0.1:7000");
const route = routes.resolve("/up")!;

/** Feeds the stream in the given pieces; returns what the agent gets, and after which piece each byte went out. */
function run(pieces: string[]): { out: string; sentAfter: number[] } {
  const rewriter = createEndpointRewriter((data) => routes.rewriteEndpoint(route, data));
  let out = "";
  const sentAfter: number[] = [];
  pieces.forEach((piece, i) => {
    const sent = rewriter.push(Buffer.from(piece));
    if (sent) {
      out += sent.toString("utf8");
      sentAfter.push(i);
    }
  });
  const rest = rewriter.flush();
  if (rest) out += rest.toString("utf8");
  return { out, sentAfter };
}

test("a relative endpoint becomes the proxy's path under the upstream's name, in every cut of the bytes", () => {
  const stream =
    'event: endpoint\r\ndata: /messages?sessionId=abc\r\n\r\nevent: message\r\ndata: {"jsonrpc":"2.0","method":"x"}\r\n\r\n';
  const expected =
    'event: endpoint\ndata: /up/messages?sessionId=abc\n\nevent: message\r\ndata: {"jsonrpc":"2.0","method":"x"}\r\n\r\n';
  for (let cut = 1; cut < stream.length; cut++) {
    assert.equal(run([stream.slice(0, cut), stream.slice(cut)]).out, expected, `cut at ${cut}`);
  }
  assert.equal(run([...stream]).out, expected, "one byte at a time");
});

test("an absolute endpoint stays absolute; data before event, ids and keep-alive comments are kept", () => {
  const { out, sentAfter } = run([
    ": hello\n\n",
    "data: http://10.0.0.5:3001/messages?sessionId=1\nid: 7\nevent: endpoint\n\n",
  ]);
  assert.equal(out, ": hello\n\nevent: endpoint\nid: 7\ndata: http://127.0.0.1:7000/up/messages?sessionId=1\n\n");
  assert.deepEqual(sentAfter, [0, 1], "the comment went out before the endpoint arrived");
});

test("another origin, a stream that is not HTTP+SSE, or an unfinished event pass unchanged", () => {
  const elsewhere = "event: endpoint\ndata: https://other.example/messages\n\n";
  assert.equal(run([elsewhere]).out, elsewhere);
  const streamable = 'id: s_1\ndata: {"jsonrpc":"2.0","id":0,"method":"elicitation/create"}\n\nid: s_2\ndata: {}\n\n';
  assert.equal(run([streamable]).out, streamable);
  assert.equal(run(["event: endpoint\ndata: /messages"]).out, "event: endpoint\ndata: /messages");
});

test("routes: /<name> is the upstream URL, /<name>/<path> its origin's path; other names are not served", () => {
  assert.equal(routes.resolve("/up")!.target.href, "http://10.0.0.5:3001/sse");
  assert.equal(routes.resolve("/up?x=1")!.target.href, "http://10.0.0.5:3001/sse?x=1");
  assert.equal(
    routes.resolve("/up/messages?sessionId=abc")!.target.href,
    "http://10.0.0.5:3001/messages?sessionId=abc",
  );
  assert.equal(routes.resolve("/up")!.via, "http://127.0.0.1:7000/up");
  assert.equal(routes.resolve("/down"), undefined);
  assert.equal(routes.resolve("/%E0%A4%A"), undefined);
});
