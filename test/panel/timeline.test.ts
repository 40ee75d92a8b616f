import assert from "node:assert/strict";
import { test } from "node:test";
import type { Flow } from "../../src/engine/index.ts";
import { axisTicks, layOut, marksIn, ROW_H } from "../../panel/model/timeline.ts";

/** The few fields the timeline reads of a flow. */
const flow = (id: string, server: string, startedAt: number, endedAt: number, status = "accepted"): Flow =>
  ({ id, server, startedAt, endedAt, status, rounds: [], elicitations: [] }) as unknown as Flow;

test("the timeline lays out a lane per server, a flow in the first row free at its start, pending flows up to now", () => {
  const flows = [
    flow("a", "s1", 0, 100),
    flow("b", "s1", 50, 150),
    flow("c", "s1", 120, 200),
    flow("d", "s2", 10, 20, "pending"),
  ];
  const { lanes, min, max } = layOut(flows, 300);
  assert.deepEqual(
    lanes.map((l) => [l.server, l.rows]),
    [
      ["s1", 2],
      ["s2", 1],
    ],
  );
  assert.deepEqual(
    lanes[0]!.placed.map((p) => [p.flow.id, p.row, p.index]),
    [
      ["a", 0, 0],
      ["b", 1, 1],
      ["c", 0, 2],
    ],
  );
  assert.equal(lanes[1]!.placed[0]!.end, 300);
  assert.deepEqual([min, max], [0, 300]);
});

test("marks: spans out of the window or filtered out are not drawn; touching spans in a row are one cluster; the selection always is", () => {
  const flows = [
    flow("a", "s1", 0, 10),
    flow("b", "s1", 10, 20),
    flow("c", "s1", 500, 600),
    flow("d", "s2", 0, 10),
    flow("e", "s2", 2000, 2100),
  ];
  const { lanes } = layOut(flows, 0);
  const all = marksIn(lanes, { start: 0, end: 1000 }, 0.5, () => true, "a");
  const shown = all.marks.map((m) => [m.p.flow.id, m.count]);
  // a and b touch at half a pixel per ms: one cluster of two; e is outside the window; the selected a is drawn too.
  assert.deepEqual(shown, [
    ["a", 2],
    ["c", 1],
    ["d", 1],
    ["a", 1],
  ]);
  assert.deepEqual(all.laneTops, [0, ROW_H + 6]);
  assert.equal(all.height, 2 * (ROW_H + 6));
  const filtered = marksIn(lanes, { start: 0, end: 1000 }, 0.5, (index) => index !== 1, null);
  assert.deepEqual(
    filtered.marks.map((m) => [m.p.flow.id, m.count]),
    [
      ["a", 1],
      ["c", 1],
      ["d", 1],
    ],
  );
});

test("axis ticks: about one per 90 pixels, at a round step from the origin", () => {
  assert.deepEqual(axisTicks(0, 1000, 0, 450), [0, 200, 400, 600, 800, 1000]);
  // 65 ms over 180 pixels: a step of 50 ms, from the origin at 50.
  assert.deepEqual(axisTicks(55, 120, 50, 180), [100]);
});
