/**
 * What loaders receive as `context`: the worker passes it to `handler.query`, the browser router
 * builds it from the store (`getContext`). Nothing per-request lives at module scope.
 */
import { createContext, RouterContextProvider } from 'react-router-dom';

/** Whether the diagnostics screen may be shown (the `DIAGNOSTICS` variable, docs/routes.md). */
export const diagnosticsContext = createContext<boolean>(false);

export function routeContext({ diagnostics }: { diagnostics: boolean }): RouterContextProvider {
  const context = new RouterContextProvider();
  context.set(diagnosticsContext, diagnostics);
  return context;
}

/** Reads the diagnostics switch from a loader's context; false when there is none. */
export function diagnosticsAllowed(context: unknown): boolean {
  return context instanceof RouterContextProvider && context.get(diagnosticsContext);
}
