import assert from "node:assert/strict";
import { test } from "node:test";
import { urlMatcher } from "../../src/capture/envelopes/decoders.ts";
import { createDecoderMatcher } from "../../src/page/decoders.ts";
import { compilePattern, matchesPattern } from "../../src/util/urlPattern.ts";

// One URL pattern matcher (src/util/urlPattern.ts) for both hosts: the tap's decoder matcher and the importers'
// must answer alike on every pattern, and as the documented meaning says (a regular expression, built here only).
const patterns = [
  "/api/turn",
  "https://a.example/*/turn",
  "https://a.example/v1.turn*",
  "*",
  "**",
  "*turn",
  "https://*",
  "a*b*c",
  "",
  "https://a.example/api/*/send*",
];
const urls = [
  "https://a.example/api/turn?x=1",
  "https://a.example/v1/turn",
  "https://a.example/v1/turn?x",
  "https://a.example/v1xturn",
  "https://a.example/v1.turn?q",
  "https://a.example/api/s1/send",
  "https://a.example/api/s1/send/more",
  "abc",
  "ab",
  "acb",
  "",
];

function meaning(pattern: string, url: string): boolean {
  if (!pattern.includes("*")) return url.includes(pattern);
  const source = pattern
    .split("*")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
    .join(".*");
  return new RegExp(`^${source}$`, "s").test(url);
}

test("the tap and the importers match the same URLs for every pattern, as documented", () => {
  for (const pattern of patterns) {
    const tap = createDecoderMatcher();
    tap.set(JSON.stringify([{ url: pattern }]));
    const importer = urlMatcher(pattern);
    for (const url of urls) {
      const expected = meaning(pattern, url);
      assert.equal(matchesPattern(compilePattern(pattern), url), expected, `${pattern} ~ ${url}`);
      assert.equal(importer(url), expected, `importer: ${pattern} ~ ${url}`);
      // The tap drops an empty pattern (the worker never stores one); it matches nothing then.
      assert.equal(tap.matches(url, undefined), pattern === "" ? false : expected, `tap: ${pattern} ~ ${url}`);
    }
  }
});

test("the matcher calls no String.prototype method (the page may have replaced them)", () => {
  const saved = {
    includes: String.prototype.includes,
    indexOf: String.prototype.indexOf,
    slice: String.prototype.slice,
    startsWith: String.prototype.startsWith,
  };
  const trap = () => {
    throw new Error("String.prototype method called");
  };
  Object.assign(String.prototype, { includes: trap, indexOf: trap, slice: trap, startsWith: trap });
  try {
    assert.equal(matchesPattern(compilePattern("https://a.example/*/turn"), "https://a.example/v1/turn"), true);
    assert.equal(matchesPattern(compilePattern("/api/turn"), "https://a.example/api/turn"), true);
  } finally {
    Object.assign(String.prototype, saved);
  }
});
