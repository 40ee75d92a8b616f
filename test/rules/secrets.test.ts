import { test } from "node:test";
import assert from "node:assert/strict";
import { secretTerm, secretValue, words } from "../../src/util/secrets.ts";

test("words: case changes and separators, whole words", () => {
  assert.deepEqual(words("apiKey"), ["api", "key"]);
  assert.deepEqual(words("API_KEY"), ["api", "key"]);
  assert.deepEqual(words("x-api-key"), ["x", "api", "key"]);
  assert.deepEqual(words("passwordExpiryDays"), ["password", "expiry", "days"]);
  assert.deepEqual(words("OAuthToken"), ["o", "auth", "token"]);
  assert.deepEqual(words("secretariat"), ["secretariat"]);
});

test("secretTerm: asks for vs talks about", () => {
  assert.equal(secretTerm("refresh_token"), "refresh token");
  assert.equal(secretTerm("Card number"), "card number");
  assert.equal(secretTerm("card expiry date"), "card expiry");
  assert.equal(secretTerm("IBAN"), "iban");
  assert.equal(secretTerm("account number"), null);
  assert.equal(secretTerm("account number for the payment"), "account number");
  assert.equal(secretTerm("number of API keys"), null);
  assert.equal(secretTerm("token count"), null);
  assert.equal(secretTerm("spinner"), null);
  assert.equal(secretTerm("ssn"), null);
  assert.equal(secretTerm("ssn", { identity: true }), "ssn");
});

const jwt =
  "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";

test("secretValue: key prefixes, JWT, PEM, Luhn card numbers", () => {
  assert.match(secretValue("use sk-live-4f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c") ?? "", /sk-/);
  assert.match(secretValue("sk_live_51H8abcdefghijklmnop") ?? "", /Stripe/);
  assert.match(secretValue("ghp_abcdefghijklmnopqrstuvwxyz0123456789") ?? "", /GitHub/);
  assert.match(secretValue("github_pat_11ABCDEFG0123456789_abcdefghijklmnop") ?? "", /GitHub/);
  assert.match(secretValue("xoxb-123456789012-abcdefghij") ?? "", /Slack/);
  assert.match(secretValue("AKIAIOSFODNN7EXAMPLE") ?? "", /AWS/);
  assert.match(secretValue(`Bearer ${jwt}`) ?? "", /JWT/);
  assert.match(secretValue("-----BEGIN RSA PRIVATE KEY-----\nMIIE...") ?? "", /PEM/);
  assert.match(secretValue("4111 1111 1111 1111") ?? "", /card/);
  assert.match(secretValue("4111-1111-1111-1111") ?? "", /card/);
  assert.equal(secretValue("4111 1111 1111 1111", { cards: false }), null);
});

test("secretValue: ordinary values stay clean", () => {
  for (const v of [
    "octocat",
    "sk-short",
    "task-1234",
    "eyJub3QiOiJhIGp3dCJ9.e30.x",
    "1724371200000",
    "4111 1111 1111 1112",
    "+1 555 123 4567",
    "2025-11-25",
    "desk-lamp-red",
    "ghp_short",
  ]) {
    assert.equal(secretValue(v), null, v);
  }
});

test("secretTerm: modifier phrases and the many meanings of pin", () => {
  assert.equal(secretTerm("Enter a name for the new API token"), null);
  assert.equal(secretTerm("the length of your password"), null);
  assert.equal(secretTerm("Enter your password for the staging account"), "password");
  assert.equal(secretTerm("pin_location"), null);
  assert.equal(secretTerm("Enter your card PIN"), "pin");
  assert.equal(secretTerm("pinCode"), "pin code");
  assert.equal(secretTerm("token_address"), null);
  assert.equal(secretTerm("secret_name"), null);
});
