// The 2026-07-28 peer lives in demo/servers/ since the demo host runs it too; tests keep importing it from here.
export * from "../../demo/servers/modernServer.ts";
