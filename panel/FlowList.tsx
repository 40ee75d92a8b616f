import type { Flow } from "../src/engine/index.ts";

/** The flows of the tab, one row each. Everything shown is text: captured payloads are hostile. */
export function FlowList({ flows }: { flows: readonly Flow[] }) {
  if (flows.length === 0) return <p class="empty">No elicitation flows yet.</p>;
  return (
    <table aria-label="Flows">
      <thead>
        <tr>
          <th scope="col">Flow</th>
          <th scope="col">Kind</th>
          <th scope="col">Era</th>
          <th scope="col">Method</th>
          <th scope="col">Target</th>
          <th scope="col">Status</th>
          <th scope="col">Rounds</th>
        </tr>
      </thead>
      <tbody>
        {flows.map((flow) => (
          <tr key={flow.id} aria-label={`flow ${flow.id}`} data-flow={flow.id}>
            <td>{flow.id}</td>
            <td>{flow.kind}</td>
            <td>{flow.revision ?? "unknown"}</td>
            <td>{flow.method}</td>
            <td>{flow.target ?? ""}</td>
            <td>{flow.status}</td>
            <td>{flow.rounds.length}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
