import type { Finding } from "../src/engine/index.ts";

/** The findings of the tab. The spec link is shown as text, never opened by the panel. */
export function FindingList({ findings }: { findings: readonly Finding[] }) {
  if (findings.length === 0) return <p class="empty">No findings.</p>;
  return (
    <table aria-label="Findings">
      <thead>
        <tr>
          <th scope="col">Severity</th>
          <th scope="col">Rule</th>
          <th scope="col">Message</th>
          <th scope="col">Flow</th>
          <th scope="col">Record</th>
        </tr>
      </thead>
      <tbody>
        {findings.map((finding) => (
          <tr key={finding.id} aria-label={`finding ${finding.id}`} data-finding={finding.id} class={finding.severity}>
            <td>{finding.severity}</td>
            <td>{finding.rule}</td>
            <td>{finding.message}</td>
            <td>{finding.flow ?? ""}</td>
            <td>{finding.record}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
