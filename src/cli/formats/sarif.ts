import { specLink } from "../../engine/index.ts";
import { rules as catalogue } from "../../engine/rules/index.ts";
import type { RuleMeta, Severity } from "../../engine/rules/types.ts";
import { placeOf, type FormatInput, type Linted } from "./types.ts";

// SARIF 2.1.0 (OASIS): the log GitHub code scanning and most CI dashboards show inline. test/cli/formats.test.ts
// validates it against the schema Microsoft's SARIF SDK ships.
const SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json";

const sarifLevel = (s: Severity): "error" | "warning" | "note" => (s === "info" ? "note" : s);

/** `form-secret-field` → `FormSecretField`: SARIF's `name` is an identifier-like, readable rule name. */
const ruleName = (id: string): string =>
  id.replace(/(^|-)([a-z0-9])/g, (_, _dash: string, c: string) => c.toUpperCase());

/** A file path as a URI reference (forward slashes, percent-encoded), relative paths staying relative. */
const artifactUri = (file: string): string => (file === "-" ? "stdin" : encodeURI(file.replace(/\\/g, "/")));

const plain = (s: string): string => s.replace(/`/g, "");

function descriptor(meta: RuleMeta) {
  return {
    id: meta.id,
    name: ruleName(meta.id),
    shortDescription: { text: plain(meta.title) },
    fullDescription: {
      text:
        `${plain(meta.title)} Revisions: ${meta.revisions}. Violator: ${meta.violator}. ` +
        `Detection: ${meta.detection}. Severity: ${meta.severityNote}. Catalogue §${meta.section}.`,
    },
    helpUri: specLink(meta, null),
    defaultConfiguration: { level: sarifLevel(meta.severity) },
    properties: {
      revisions: meta.revisions,
      violator: meta.violator,
      detection: meta.detection,
      section: meta.section,
    },
  };
}

type Place = { line?: number; entry?: number };

function location(file: Linted, index: number, place: Place, record: number | undefined, pointer: string | undefined) {
  const physicalLocation = {
    artifactLocation: { uri: artifactUri(file.file), index },
    ...(place.line !== undefined && { region: { startLine: place.line } }),
  };
  const logical =
    place.entry !== undefined
      ? `log.entries[${place.entry}]`
      : place.line === undefined && record !== undefined && record >= 0
        ? `record ${record}`
        : undefined;
  return {
    physicalLocation,
    ...(logical !== undefined && {
      logicalLocations: [{ fullyQualifiedName: pointer ? `${logical}${pointer}` : logical, kind: "element" }],
    }),
  };
}

/** The run as a SARIF 2.1.0 log: every catalogue rule as a reportingDescriptor, one result per finding. */
export function toSarif({ files, settings, version }: FormatInput) {
  const index = new Map(catalogue.map((r, i) => [r.id, i]));
  const overrides = Object.entries(settings.levels).flatMap(([id, level]) => {
    const i = index.get(id);
    if (i === undefined) return [];
    const configuration = level === "off" ? { enabled: false } : { level: sarifLevel(level) };
    return [{ descriptor: { id, index: i }, configuration }];
  });
  const results = files.flatMap((file, i) =>
    file.findings.map((f) => ({
      ruleId: f.rule,
      ...(index.has(f.rule) && { ruleIndex: index.get(f.rule) }),
      level: sarifLevel(f.severity),
      message: { text: f.message },
      locations: [location(file, i, placeOf(file, f.entry, f.record), f.record, f.pointer)],
      properties: {
        flow: f.flow,
        pointer: f.pointer,
        violator: f.violator,
        entry: f.entry,
        record: f.record,
        spec: f.spec,
      },
    })),
  );
  const notifications = files.flatMap((file, i) =>
    file.problems.map((p) => ({
      level: "error" as const,
      message: { text: p.message },
      locations: [
        location(
          file,
          i,
          p.line !== undefined ? { line: p.line } : placeOf(file, p.entry, p.record),
          p.record,
          undefined,
        ),
      ],
    })),
  );
  return {
    $schema: SCHEMA,
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "mcp-elicit",
            semanticVersion: version,
            version,
            rules: catalogue.map(descriptor),
          },
        },
        invocations: [
          {
            executionSuccessful: notifications.length === 0,
            ...(notifications.length > 0 && { toolExecutionNotifications: notifications }),
            ...(overrides.length > 0 && { ruleConfigurationOverrides: overrides }),
          },
        ],
        artifacts: files.map((f) => ({ location: { uri: artifactUri(f.file) } })),
        results,
      },
    ],
  };
}
