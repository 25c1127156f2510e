/**
 * A page's view announced (docs/operators.md): once its response is decided, kept pages included, a
 * person's view of a counted page is a fact for the funnel (lib/visit.ts `viewed`, announce.ts).
 */
import type { Context } from 'hono';
import { announce, sceneOf } from '../announce.ts';
import type { AppEnv } from '../env.ts';
import { type PageView, viewed } from '../lib/visit.ts';

/** Announces the view `view` of the request of `c`, answered with `status`, when it is a person's view of a found page. */
export function countView(c: Context<AppEnv>, view: PageView | null, status: number): void {
  const fact = viewed(c, view, status);
  if (fact) announce(sceneOf(c), fact);
}
