/**
 * The one place a fact is announced (docs/architecture.md#facts-and-listeners): the fraud rules flag
 * it, then every listener translates it — the funnel counts it, the webhooks and the conversions
 * (docs/conversions.md) send it. A producer
 * (attribution's routes, a page's view, the links API) calls `announce` once with a complete fact
 * and gets back the flags raised, for the ledger to keep beside the install's answer. A new listener
 * (cohorts, privacy) is one line in `LISTENERS`; no listener knows a producer.
 */
import type { Context } from 'hono';
import { sendConversion } from './conversions/send-facts.ts';
import type { AppEnv } from './env.ts';
import type { Fact, Listener, RaisedFlags, Scene } from './facts.ts';
import { flagFact } from './fraud/flag-facts.ts';
import { countFact } from './funnel/count-facts.ts';
import { sendFact } from './webhooks/send-facts.ts';

/** Everyone who hears a fact, after its flags are decided. */
const LISTENERS: readonly Listener[] = [countFact, sendFact, sendConversion];

/**
 * Announces `fact`: flags it, hands it and its flags to every listener, and answers the flags raised
 * (per install's ledger key; `[]` for a fact no rule reads). Never throws, never waits: each listener
 * works after the response (`scene.ctx.waitUntil`).
 */
export function announce(scene: Scene, fact: Fact): Promise<RaisedFlags[]> {
  const raised = flagFact(scene, fact);
  for (const listen of LISTENERS) listen(scene, fact, raised);
  return raised;
}

/**
 * The scene of a Hono handler: its environment, its `waitUntil`, and the operator's configuration
 * (worker/index.ts reads it before every route that announces; a route mounted before it has none,
 * whatever the type says).
 */
export function sceneOf(c: Context<AppEnv>): Scene {
  const loaded: AppEnv['Variables']['config'] | undefined = c.get('config');
  return { env: c.env, app: c.get('app'), ctx: c.executionCtx, config: loaded?.config };
}
