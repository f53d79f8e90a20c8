/**
 * Route-change listeners (the tab bar, later the visit tracking). The router feeds every
 * finished navigation in; logout removes every listener (docs/product.md "The back office").
 */
export interface RouteChange {
  /** Route-table name of the screen shown. */
  name: string;
  pathname: string;
  search: string;
  /** pathname + search */
  fullPath: string;
}

type Handler = (change: RouteChange) => void;

const handlers = new Set<Handler>();
let latest: RouteChange | null = null;

export function emitRouteChange(change: RouteChange): void {
  latest = change;
  handlers.forEach((handler) => handler(change));
}

/** Subscribes; with `immediate` the handler also gets the current route right away. */
export function listenRouteChange(handler: Handler, immediate = true): () => void {
  handlers.add(handler);
  if (immediate && latest) handler(latest);
  return () => {
    handlers.delete(handler);
  };
}

export function removeRouteListener(): void {
  handlers.clear();
}
