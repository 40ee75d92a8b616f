// `npm start`: the main job on the built-in demo. Until the extension lands this runs the CLI over
// demo/demo-capture.jsonl — real traffic recorded from the official MCP SDKs of both protocol eras
// (regenerate it with `npx tsx scripts/make-demo-capture.ts`).
import { spawnSync } from "node:child_process";

const capture = "demo/demo-capture.jsonl";
console.log(`mcp-elicit lint ${capture}   (real SDK traffic of both protocol eras)\n`);
const r = spawnSync(process.execPath, ["dist/cli/mcp-elicit.js", "lint", capture, ...process.argv.slice(2)], { stdio: "inherit" });
console.log(`\nTry: npx mcp-elicit lint ${capture} --json, or run it on a HAR saved from your browser's Network panel.`);
process.exit(r.status === 2 ? 2 : 0);
