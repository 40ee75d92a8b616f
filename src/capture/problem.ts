/** Input the engine or an importer could not use: never thrown, always reported with where it was. */
export interface Problem {
  /** The capture file, when the input came from a file. */
  file?: string;
  /** HAR entry index or JSONL line number (1-based) or record seq. */
  entry?: number;
  line?: number;
  record?: number;
  message: string;
}
