import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** The narrowest a column without a `width` (the one that takes the room left, e.g. a remark) becomes before the table scrolls. */
export const FLEX_COLUMN_MIN_WIDTH = 200;
/** antd's checkbox column (selection) and expand-icon column. */
export const SELECTION_COLUMN_WIDTH = 48;

/** Grow passes per language and density: content that grows with its cell must not loop forever. */
const MAX_PASSES = 6;

/**
 * The table's width for `scroll.x`: the sum of what its shown columns need (their `width`, or
 * `minWidth` / FLEX_COLUMN_MIN_WIDTH for a column that takes the room left) plus `extra`
 * (selection, expand columns). Wider than its box, the table scrolls sideways; narrower, antd
 * shares the room out. A fixed guess instead (one number per screen) squeezed a width-less
 * column to a few pixels whenever the columns' widths added up to more than the guess.
 */
export function tableScrollWidth(columns: ReadonlyArray<{ width?: number | string; minWidth?: number }>, extra = 0): number {
  return columns.reduce((sum, c) => sum + (typeof c.width === 'number' ? c.width : (c.minWidth ?? FLEX_COLUMN_MIN_WIDTH)), extra);
}

/**
 * Where what `root` holds lies on the screen, left and right (null when it holds nothing): its
 * text and elements, and what spills out of them; not what an element inside cuts off itself
 * (a switch's other label, an ellipsis span's text: that element's own box counts).
 */
export function contentExtent(root: Element): { left: number; right: number } | null {
  let left = Infinity;
  let right = -Infinity;
  const add = (rect: DOMRect) => {
    if (rect.width === 0 && rect.height === 0) return;
    left = Math.min(left, rect.left);
    right = Math.max(right, rect.right);
  };
  const walk = (node: Node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) {
        if (!child.textContent?.trim()) continue;
        const range = document.createRange();
        range.selectNodeContents(child);
        add(range.getBoundingClientRect());
      } else if (child instanceof Element) {
        const style = getComputedStyle(child);
        if (style.display === 'none') continue;
        add(child.getBoundingClientRect());
        if (style.overflowX === 'visible') walk(child);
      }
    }
  };
  walk(root);
  return left === Infinity ? null : { left, right };
}

/** A Latin word or number: broken over two lines, it reads as two ("Announcemen" / "ts"). */
const LATIN_WORD = /[A-Za-z0-9]{2,}/g;

/**
 * How much wider than its content box `cell` must be for none of its Latin words to break over
 * two lines (0 when none does). A cell's text wraps at spaces as the column narrows; a single
 * word then breaks inside itself and nothing spills, so the overflow check alone misses it.
 * Chinese text may break between any two characters: only Latin words count.
 */
export function brokenWordOverflow(cell: HTMLElement): number {
  if (typeof document.createRange().getClientRects !== 'function') return 0;
  const style = getComputedStyle(cell);
  const room = cell.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  let over = 0;
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent ?? '';
    if (!/[A-Za-z0-9]{2,}/.test(text)) continue;
    const whole = document.createRange();
    whole.selectNodeContents(node);
    if (whole.getClientRects().length < 2) continue; // on one line: nothing broken
    for (const match of text.matchAll(LATIN_WORD)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rects = [...range.getClientRects()];
      if (rects.length < 2) continue;
      const width = rects.reduce((sum, r) => sum + r.width, 0);
      over = Math.max(over, width - room);
    }
  }
  return over;
}

/**
 * How far a table cell's content runs past the cell's content box, in px (0 when it fits), or
 * how much antd's ellipsis span inside it cuts, or how much wider it must be for no word to
 * break over two lines. The cell's scrollWidth only says where to look:
 * the shadow a pinned column casts adds to it too.
 */
export function cellOverflow(cell: HTMLElement): number {
  let over = brokenWordOverflow(cell);
  for (const span of cell.querySelectorAll<HTMLElement>('.ant-table-cell-content, .ant-table-column-title')) {
    over = Math.max(over, span.scrollWidth - span.clientWidth);
  }
  // (A DOM without layout, as in the unit tests, measures nothing.)
  if (cell.scrollWidth <= cell.clientWidth + 1 || typeof document.createRange().getBoundingClientRect !== 'function') return over;
  const content = contentExtent(cell);
  if (!content) return over;
  const box = cell.getBoundingClientRect();
  const style = getComputedStyle(cell);
  const left = box.left + cell.clientLeft + parseFloat(style.paddingLeft);
  const right = box.left + cell.clientLeft + cell.clientWidth - parseFloat(style.paddingRight);
  return Math.max(over, content.right - right, left - content.left);
}

/**
 * The width each column needs so that nothing in it is cut, measured in the rendered table
 * under `root` (cells carry `data-column`): a header cell never clips, a body cell clips only
 * in `mayClip` columns (those that ellipsize long user text). Only columns that need more
 * than they have are named.
 */
export function measureNeeds(root: HTMLElement, mayClip: ReadonlySet<string>): Record<string, number> {
  const needs: Record<string, number> = {};
  for (const cell of root.querySelectorAll<HTMLElement>('th[data-column], td[data-column]')) {
    const key = cell.dataset.column!;
    if (cell.tagName === 'TD' && mayClip.has(key)) continue;
    const over = cellOverflow(cell);
    if (over <= 1) continue;
    needs[key] = Math.max(needs[key] ?? 0, Math.ceil(cell.getBoundingClientRect().width + over));
  }
  return needs;
}

/**
 * What the table shows, for useFitColumns to tell a render that changed it from one that did not:
 * `columns` a string naming the shown columns and their declared sizes, `rows` the data (its
 * identity: a new page, a reload).
 */
export interface FitWatch {
  columns: string;
  rows: unknown;
}

/**
 * Widths that fit each column's rendered content (buttons, tags, dates, headers) in the
 * language and density shown, measured when what the table shows changes (`watch`: the columns,
 * the data; and the widths it grew), when the fonts have loaded and when the table's box changes
 * size or a cell's content changes: a screen's widths are a starting point, never a cut. A render
 * that changes none of that (a selection, a page's own state) measures nothing: measuring reads
 * the layout of every cell.
 * Widths only grow, and start again from the screen's own for another `resetKey` (language, density).
 */
export function useFitColumns(
  root: RefObject<HTMLElement | null>,
  resetKey: string,
  mayClip: ReadonlySet<string>,
  watch: FitWatch,
): Record<string, number> {
  const [fit, setFit] = useState<{ key: string; widths: Record<string, number>; passes: number }>({ key: resetKey, widths: {}, passes: 0 });

  const clipKey = [...mayClip].join('|');
  const measure = () => {
    const el = root.current;
    if (!el) return;
    const needs = measureNeeds(el, mayClip);
    if (Object.keys(needs).length === 0) return;
    setFit((prev) => {
      const base = prev.key === resetKey ? prev : { key: resetKey, widths: {}, passes: 0 };
      if (base.passes >= MAX_PASSES) return prev;
      const widths = { ...base.widths };
      let grew = false;
      for (const [key, need] of Object.entries(needs)) {
        if (need > (widths[key] ?? 0) + 1) {
          widths[key] = need;
          grew = true;
        }
      }
      return grew ? { key: resetKey, widths, passes: base.passes + 1 } : prev;
    });
  };

  const contentChanges = useRef<MutationObserver | undefined>(undefined);
  // After a render that changed what is shown (rows, columns, language, density, or the widths
  // grown by the last pass): before the browser paints. A measurement of the DOM React just laid
  // out, which only the layout effect can take; it settles in a pass or two.
  useLayoutEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a measurement of the DOM just laid out
    measure();
    // The cells this render changed are measured: their mutations need no second pass.
    contentChanges.current?.takeRecords();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [resetKey, clipKey, watch.columns, watch.rows, fit]);
  // Web fonts arriving, the box narrowing (window, side menu), or a cell's content changing on
  // its own (a label loaded after the rows, a button's spinner) change what fits. A class or
  // style changing (a selected row) does not.
  useEffect(() => {
    const el = root.current;
    if (!el) return;
    let live = true;
    void document.fonts?.ready.then(() => live && measure());
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => measure());
    observer?.observe(el);
    const content = typeof MutationObserver === 'undefined' ? undefined : new MutationObserver(() => measure());
    content?.observe(el, { childList: true, characterData: true, subtree: true });
    contentChanges.current = content;
    return () => {
      live = false;
      observer?.disconnect();
      content?.disconnect();
      contentChanges.current = undefined;
    };
    // measure reads the latest resetKey and mayClip through the render that set them up.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [root, resetKey, clipKey]);

  return fit.key === resetKey ? fit.widths : {};
}
