/**
 * Which lazy screen a path shows, so its chunk can be loaded ahead of the router: by the link
 * preloader and by the navigation guard. Uses the one route table; the `import()` behind each
 * screen is shared with the router's own, so a chunk is fetched once whoever asks first.
 */
import type { matchRoutes, RouteObject } from 'react-router-dom';

export interface Screen {
  /** The route's id: one per chunk. */
  id: string;
  load: () => Promise<unknown>;
}

/** The route table and its matcher, handed over by the entry (see enhance.ts). */
export interface RouteTable {
  routes: RouteObject[];
  matchRoutes: typeof matchRoutes;
}

/** The not-yet-loaded lazy screen `pathname` matches, if any (screens loaded at start have none). */
export function screenFor({ routes, matchRoutes }: RouteTable, pathname: string): Screen | undefined {
  const matches = matchRoutes(routes, pathname) ?? [];
  for (const { route } of [...matches].reverse()) {
    const { lazy } = route;
    if (typeof lazy === 'function') return { id: route.id ?? route.path ?? pathname, load: () => lazy() };
  }
  return undefined;
}

/** Loads the screen of `pathname`; rejects when its chunk does not load. */
export async function loadScreen(table: RouteTable, pathname: string): Promise<void> {
  await screenFor(table, pathname)?.load();
}
