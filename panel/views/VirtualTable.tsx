import type { ComponentChildren, JSX } from "preact";
import { useCallback, useLayoutEffect, useRef, useState } from "preact/hooks";

/** Rows rendered beyond the visible ones on each side: smooth scrolling, and short lists render whole. */
const OVERSCAN = 24;
/** Height assumed before the container has been measured. */
const FIRST_HEIGHT = 800;

export interface VirtualTableProps {
  label: string;
  rowCount: number;
  /** Fixed row height in px; the stylesheet must agree (`.vt tbody tr`). */
  rowHeight: number;
  header: ComponentChildren;
  columns?: ComponentChildren;
  renderRow(index: number): JSX.Element;
  /** The row to keep in view (the selection); scrolled to when it changes. */
  activeIndex: number;
  onKeyDown?(event: KeyboardEvent): void;
  class?: string;
}

/**
 * A table whose body renders only the rows in view, with spacer rows standing for the rest: fixed row height, so
 * the window is arithmetic (preact-devtools' VirtualizedList). Real <table>/<tr>/<td>, so rows keep their roles
 * and names for assistive technology and tests; `aria-rowcount`/`aria-rowindex` tell the full size.
 */
export function VirtualTable(props: VirtualTableProps) {
  const { rowCount, rowHeight, activeIndex } = props;
  const scroller = useRef<HTMLDivElement>(null);
  const [view, setView] = useState({ top: 0, height: FIRST_HEIGHT });
  const header = 1; // the header row counts in aria-rowindex

  const measure = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    setView((v) =>
      v.top === el.scrollTop && v.height === el.clientHeight
        ? v
        : { top: el.scrollTop, height: el.clientHeight || FIRST_HEIGHT },
    );
  }, []);

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    measure();
    const observer = typeof ResizeObserver === "function" ? new ResizeObserver(measure) : undefined;
    observer?.observe(el);
    return () => observer?.disconnect();
  }, [measure]);

  // Keep the active row in view (keyboard, a finding's jump), leaving the header's height free at the top.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el || activeIndex < 0) return;
    const head = el.querySelector("thead")?.getBoundingClientRect().height ?? rowHeight;
    const rowTop = activeIndex * rowHeight;
    if (rowTop < el.scrollTop) el.scrollTop = rowTop;
    else if (rowTop + rowHeight > el.scrollTop + el.clientHeight - head)
      el.scrollTop = rowTop + rowHeight - el.clientHeight + head;
    measure();
  }, [activeIndex, rowHeight, measure]);

  const first = Math.max(0, Math.floor(view.top / rowHeight) - OVERSCAN);
  const last = Math.min(rowCount, Math.ceil((view.top + view.height) / rowHeight) + OVERSCAN);
  const rows: JSX.Element[] = [];
  for (let i = first; i < last; i++) rows.push(props.renderRow(i));

  return (
    <div class={`vt ${props.class ?? ""}`} ref={scroller} tabIndex={-1} onScroll={measure} onKeyDown={props.onKeyDown}>
      <table aria-label={props.label} aria-rowcount={rowCount + header} style={{ "--row-h": `${rowHeight}px` }}>
        {props.columns}
        <thead>{props.header}</thead>
        <tbody>
          {first > 0 && <tr class="spacer" aria-hidden="true" style={{ height: `${first * rowHeight}px` }} />}
          {rows}
          {last < rowCount && (
            <tr class="spacer" aria-hidden="true" style={{ height: `${(rowCount - last) * rowHeight}px` }} />
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Focuses the row that carries `selector` inside `root` once it is rendered (roving focus in a virtual table). */
export function useRowFocus(root: { current: HTMLElement | null }, selector: string | null, wanted: boolean): void {
  // A layout effect: the keyboard must be on the new row before the next key arrives.
  useLayoutEffect(() => {
    if (!wanted || selector === null) return;
    const row = root.current?.querySelector<HTMLElement>(selector);
    if (row && document.activeElement !== row && root.current?.contains(document.activeElement))
      row.focus({ preventScroll: true });
  });
}

/** The index after a navigation key, or undefined when the key is not one. */
export function nextIndex(key: string, index: number, count: number, page: number): number | undefined {
  if (count === 0) return undefined;
  switch (key) {
    case "ArrowDown":
      return Math.min(count - 1, index + 1);
    case "ArrowUp":
      return index < 0 ? count - 1 : Math.max(0, index - 1);
    case "PageDown":
      return Math.min(count - 1, Math.max(0, index) + page);
    case "PageUp":
      return Math.max(0, index - page);
    case "Home":
      return 0;
    case "End":
      return count - 1;
    default:
      return undefined;
  }
}

/** Puts the keyboard in a list: on its focusable row (the selection, else the first), else on the list itself. */
export function focusList(selector: string): void {
  const list = document.querySelector<HTMLElement>(selector);
  (list?.querySelector<HTMLElement>('tbody tr[tabindex="0"]') ?? list)?.focus();
}
