export const REPLAY_USAGE = "mcp-elicit replay [--port N] <capture.har|capture.jsonl>";
export async function replayMain(argv: string[]): Promise<number> {
  void argv;
  return 2;
}
