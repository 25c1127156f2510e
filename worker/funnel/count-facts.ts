/**
 * The funnel's listener (docs/operators.md): each fact becomes one event to count, on the day of its
 * `at` in the operator's time zone when the producer's route loaded the configuration, else UTC
 * (docs/operators.md#days-and-time-zones). A page view carries its visitor; a tap makes none (its
 * visitor was counted by the view of the page it was made on, docs/operators.md#visitors). An
 * install is one message however often it is decided; an open and an app event are bounded per
 * install and day, an app event's names per app (docs/operators.md#bounds).
 */
import type { Fact, InstallAnswer, Listener, Scene } from '../facts.ts';
import type { EventInput, FunnelEvent } from './events.ts';
import { recordEvent } from './record-event.ts';

/**
 * The funnel message id of the install whose ledger key is `key`: an install decided twice — its
 * storage down past the catch-up, then the app's retry (docs/reliability.md) — is the same message,
 * counted once (funnel/consume-batch.ts).
 */
export const installMessageId = (key: string): string => `install:${key}`;

const answered = (type: 'install' | 'open', answer: InstallAnswer): FunnelEvent =>
  answer.matched ? { type, method: answer.method } : { type, unmatched: answer.reason };

/** What the funnel counts of `fact`, or null when it counts nothing of it. */
export function eventOf(fact: Fact): EventInput | null {
  const { at } = fact;
  switch (fact.fact) {
    case 'page-viewed':
      return { event: { type: 'view', page: fact.page }, dims: fact.dims, visitor: fact.visitor, at };
    case 'tapped':
      return { event: { type: 'tap', action: fact.action }, dims: fact.dims, at };
    case 'install-decided':
      return { event: answered('install', fact.answer), dims: fact.dims, id: installMessageId(fact.key), at };
    case 'open-decided':
      return { event: answered('open', fact.answer), dims: fact.dims, install: fact.key, at };
    case 'app-event': {
      const value = fact.value === undefined ? {} : { value: fact.value };
      const money =
        fact.currency === undefined || fact.amount === undefined
          ? {}
          : { currency: fact.currency, amount: fact.amount };
      const event: FunnelEvent = { type: 'event', name: fact.name, ...value, ...money };
      const id = fact.id ? { id: fact.id } : {};
      const happened = fact.happened === undefined ? {} : { happened: fact.happened };
      return { event, dims: fact.dims, app: fact.app, install: fact.key, ...id, at, ...happened };
    }
    case 'user-identified':
    case 'link-changed':
      return null;
  }
}

/** The operator's time zone whose day a fact is counted in; none (UTC) without a loaded configuration. */
function zoneOf(scene: Scene): string | undefined {
  const zone = scene.config?.funnel.time_zone;
  return zone && zone !== 'UTC' ? zone : undefined;
}

/** Counts `fact` in the funnel, after the response. */
export const countFact: Listener = function countFact(scene, fact) {
  const input = eventOf(fact);
  if (!input) return;
  const zone = zoneOf(scene);
  const counted = { ...input, tenant: scene.app };
  recordEvent(scene.env, scene.ctx, zone ? { ...counted, zone } : counted);
};
