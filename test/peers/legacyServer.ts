// The 2025-11-25 peer lives in demo/servers/ since the demo host runs it too; tests keep importing it from here.
export * from "../../demo/servers/legacyServer.ts";
