// The server's answer to a defective MRTR retry (mrtr.mdx § "Error Handling"), and a requestState completed twice.
import type { RetryDefects } from "../../model/scope.ts";
import type { Report } from "../../ruleKit/types.ts";

/** Server-side judgement of the server's final answer to a defective retry (mrtr.mdx § "Error Handling"). */
export function checkServerAfterRetry(
  defects: RetryDefects,
  outcome: "complete" | "error" | "input_required",
  at: string,
  report: Report,
): void {
  // Malformed inputResponses are a protocol error, which a JSON-RPC error answers correctly (§ "Error Handling").
  if (outcome === "error" && defects.missingKeys && !defects.malformed) {
    report({
      rule: "mrtr-server-rerequest-missing",
      pointer: `${at}/error`,
      message:
        "Retry lacked some inputResponses and the server answered with an error instead of a new InputRequiredResult.",
    });
  } else if (outcome === "error" && defects.extraKeys && !defects.malformed) {
    report({
      rule: "mrtr-server-ignore-extra",
      pointer: `${at}/error`,
      message:
        "Retry carried every requested key plus extra ones, and the server answered with an error instead of ignoring them.",
    });
  }
  if (outcome === "complete" && defects.malformed) {
    report({
      rule: "mrtr-server-validate-input",
      pointer: `${at}/result`,
      message: "Retry carried malformed inputResponses and the server still completed the request.",
    });
  }
  if (outcome === "complete" && defects.tampered) {
    report({
      rule: "mrtr-tampered-state-accepted",
      pointer: `${at}/result`,
      message: "Retry presented an altered requestState and the server still completed the request.",
    });
  }
}
