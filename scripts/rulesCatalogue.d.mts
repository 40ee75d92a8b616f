export interface CatalogueEntry {
  id: string;
  revisions: string;
  severity: string;
  severityNote: string;
  violator: string;
  title: string;
  detection: string;
  section: string;
}
export function violatorOf(cell: string): "server" | "client" | "either" | "none";
export function readCatalogue(path?: URL | string): Map<string, CatalogueEntry>;
