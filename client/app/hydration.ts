/**
 * React Router hydration data across the wire: route errors become plain objects on the worker and
 * are revived on the browser, so the hydrated error page matches the server's.
 */
import {
  isRouteErrorResponse,
  type HydrationState as RouterHydrationState,
  UNSAFE_ErrorResponseImpl,
} from 'react-router-dom';
import type { HydrationState, SerializedError } from '../../shared/handoff.ts';

interface StaticContextLike {
  loaderData: Record<string, unknown>;
  actionData: Record<string, unknown> | null;
  errors: Record<string, unknown> | null;
}

export function serializeHydration(context: StaticContextLike): HydrationState {
  let errors: Record<string, SerializedError> | null = null;
  if (context.errors) {
    errors = {};
    for (const [routeId, error] of Object.entries(context.errors)) {
      errors[routeId] = isRouteErrorResponse(error)
        ? { kind: 'response', status: error.status, statusText: error.statusText, data: error.data }
        : { kind: 'error', message: 'Unexpected error' };
    }
  }
  return { loaderData: context.loaderData, actionData: context.actionData, errors };
}

export function reviveHydration(state: HydrationState): RouterHydrationState {
  let errors: RouterHydrationState['errors'] = null;
  if (state.errors) {
    errors = {};
    for (const [routeId, error] of Object.entries(state.errors)) {
      errors[routeId] =
        error.kind === 'response'
          ? new UNSAFE_ErrorResponseImpl(error.status, error.statusText, error.data)
          : new Error(error.message);
    }
  }
  return { loaderData: state.loaderData, actionData: state.actionData, errors };
}
