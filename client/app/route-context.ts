/**
 * What loaders receive as `context`: the worker passes it to `handler.query`, the browser router
 * builds it from the store (`getContext`). Nothing per-request lives at module scope.
 */
export interface RouteContext {
  diagnostics: boolean;
}

export function isRouteContext(value: unknown): value is RouteContext {
  return typeof value === 'object' && value !== null && 'diagnostics' in value;
}
