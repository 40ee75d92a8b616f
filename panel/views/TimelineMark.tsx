import { userIntervals } from "../model/flowFacts.ts";
import type { Mark } from "../model/timeline.ts";
import { duration, shown } from "../model/text.ts";

/**
 * One mark of the timeline: a cluster (a click zooms onto it), or a flow's span (a click selects the flow) with, when
 * it is wide enough, its rounds as server segments and the time it waited on the user hatched apart.
 */
export function TimelineMark({
  mark: m,
  x,
  px,
  now,
  selected,
  onZoom,
  onSelect,
}: {
  mark: Mark;
  /** Pixels from the window's start, of a time. */
  x: (t: number) => number;
  px: number;
  now: number;
  selected: boolean;
  onZoom(start: number, end: number): void;
  onSelect(flowId: string): void;
}) {
  const wpx = m.right - m.left;
  if (m.count > 1)
    return (
      <div
        class="tl-cluster"
        style={{ left: `${m.left}px`, width: `${wpx}px`, top: `${m.top}px` }}
        title={`${m.count} flows — click to zoom in`}
        onClick={() => {
          const pad = (m.end - m.start) * 0.05 + 1;
          onZoom(m.start - pad, m.end + pad);
        }}
      />
    );
  const f = m.p.flow;
  const detailed = wpx >= 6;
  return (
    <div
      data-span={f.id}
      class={`tl-span ${f.status}${selected ? " selected" : ""}`}
      style={{ left: `${m.left}px`, width: `${wpx}px`, top: `${m.top}px` }}
      title={`${f.id} ${shown(f.method, 60)} ${shown(f.target ?? "", 80)}: ${f.status}, user ${duration(f.userMs)}, server ${duration(f.serverMs)}`}
      onClick={() => onSelect(f.id)}
    >
      {detailed &&
        f.rounds.map((r) => {
          const end = r.answeredAt ?? (f.status === "pending" ? now : r.sentAt);
          return (
            <span
              key={`r${r.index}`}
              class="seg server"
              style={{ left: `${x(r.sentAt) - m.left}px`, width: `${Math.max(1, (end - r.sentAt) * px)}px` }}
            />
          );
        })}
      {detailed &&
        userIntervals(f, now).map((u, i) => (
          <span
            key={`u${i}`}
            class="seg user"
            style={{ left: `${x(u.start) - m.left}px`, width: `${Math.max(1, (u.end - u.start) * px)}px` }}
          />
        ))}
    </div>
  );
}
