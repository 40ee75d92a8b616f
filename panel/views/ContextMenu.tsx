import { useEffect, useRef } from "preact/hooks";

export interface MenuItem {
  label: string;
  /** A choice among several (a rule's level): shown checked. Absent: a plain command. */
  checked?: boolean;
  onSelect(): void;
}

export interface MenuAt {
  x: number;
  y: number;
}

/**
 * A context menu at the pointer (or the row, from the keyboard's menu key): arrow keys move, Enter chooses,
 * Escape, a click elsewhere or leaving the window closes it. Labels are text.
 */
export function ContextMenu({
  at,
  label,
  items,
  onClose,
}: {
  at: MenuAt;
  label: string;
  items: readonly MenuItem[];
  onClose(): void;
}) {
  const root = useRef<HTMLDivElement>(null);
  useEffect(() => {
    root.current?.querySelector<HTMLElement>("[role^=menuitem]")?.focus();
    const outside = (event: Event) => {
      if (!root.current?.contains(event.target as Node)) onClose();
    };
    document.addEventListener("mousedown", outside, true);
    window.addEventListener("blur", onClose);
    return () => {
      document.removeEventListener("mousedown", outside, true);
      window.removeEventListener("blur", onClose);
    };
  }, []);
  const onKeyDown = (event: KeyboardEvent) => {
    const buttons = [...(root.current?.querySelectorAll<HTMLElement>("[role^=menuitem]") ?? [])];
    const i = buttons.indexOf(document.activeElement as HTMLElement);
    if (event.key === "Escape" || event.key === "Tab") onClose();
    else if (event.key === "ArrowDown") buttons[(i + 1) % buttons.length]?.focus();
    else if (event.key === "ArrowUp") buttons[(i - 1 + buttons.length) % buttons.length]?.focus();
    else return;
    event.preventDefault();
    event.stopPropagation();
  };
  // Kept inside the window: a menu opened near the right or bottom edge opens towards the middle.
  const style = {
    left: `min(${at.x}px, calc(100vw - 16rem))`,
    top: `min(${at.y}px, calc(100vh - ${items.length * 1.6 + 1}rem))`,
  };
  return (
    <div ref={root} class="context-menu" role="menu" aria-label={label} style={style} onKeyDown={onKeyDown}>
      {items.map((item) => (
        <button
          key={item.label}
          type="button"
          role={item.checked === undefined ? "menuitem" : "menuitemradio"}
          aria-checked={item.checked}
          onClick={() => {
            onClose();
            item.onSelect();
          }}
        >
          <span class="mark" aria-hidden="true">
            {item.checked ? "✓" : ""}
          </span>
          {item.label}
        </button>
      ))}
    </div>
  );
}

/** Where a row's menu opens: at the pointer, or below the row when the keyboard asked (no pointer position). */
export function menuAt(event: MouseEvent): MenuAt {
  if (event.clientX !== 0 || event.clientY !== 0) return { x: event.clientX, y: event.clientY };
  const box = (event.currentTarget as HTMLElement).getBoundingClientRect();
  return { x: box.left + 16, y: box.bottom };
}
