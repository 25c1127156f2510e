/** Funnel messages and D1 readers for the worker tests; each test names its own channel, so tests never share rows. */
import { env } from 'cloudflare:workers';
import type { Dimensions } from '../../worker/facts.ts';
import { type FunnelEvent, type FunnelMessage, NO_DIMENSIONS } from '../../worker/funnel/events.ts';

let next = 0;

/** A channel name no other test uses. */
export const freshChannel = (): string => `ch-${crypto.randomUUID().slice(0, 8)}`;

/** A queue message of `event` under `dims`, with a new id unless given. */
export function funnelMessage(
  event: FunnelEvent,
  dims: Partial<Dimensions>,
  extra: { id?: string; day?: string; visitor?: string } = {},
): FunnelMessage {
  next += 1;
  const { id = `m-${crypto.randomUUID()}-${next}`, day = '2026-11-20', visitor } = extra;
  return { v: 1, id, day, event, dims: { ...NO_DIMENSIONS, ...dims }, ...(visitor ? { visitor } : {}) };
}

/** `metric → count` of the funnel_daily rows of `channel`. */
export async function dailyCounts(channel: string): Promise<Record<string, number>> {
  const { results } = await env.FUNNEL_DB.prepare(
    'SELECT metric, SUM(count) AS count FROM funnel_daily WHERE channel = ?1 GROUP BY metric',
  )
    .bind(channel)
    .all<{ metric: string; count: number }>();
  return Object.fromEntries(results.map((row) => [row.metric, row.count]));
}

/** How many visitor rows `channel` has. */
export async function visitorRows(channel: string): Promise<number> {
  const row = await env.FUNNEL_DB.prepare('SELECT COUNT(*) AS n FROM funnel_visitors WHERE channel = ?1')
    .bind(channel)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** `db` with every `prepare` call counted. */
export function countingDb(db: D1Database): { db: D1Database; statements: () => number } {
  let statements = 0;
  const counted = new Proxy(db, {
    get(target, name) {
      if (name === 'prepare') {
        return (query: string) => {
          statements += 1;
          return target.prepare(query);
        };
      }
      const value: unknown = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: counted, statements: () => statements };
}

/** A database whose every call fails, as D1 does when it is down. */
export function failingDb(): D1Database {
  const fail = (): never => {
    throw new Error('D1 unavailable (injected)');
  };
  return new Proxy(env.FUNNEL_DB, { get: () => fail });
}

/**
 * The real database, refusing every transaction (`batch`) that writes or reads a row naming `marker`,
 * as D1 refuses a row it cannot take: the rest of the database answers as usual.
 */
export function refusingRowsOf(db: D1Database, marker: string): D1Database {
  const bound = new WeakSet<D1PreparedStatement>();
  const watch = (statement: D1PreparedStatement): D1PreparedStatement =>
    new Proxy(statement, {
      get(target, name) {
        if (name === 'bind') {
          return (...values: unknown[]) => {
            const next = target.bind(...values);
            if (JSON.stringify(values).includes(marker)) bound.add(next);
            return next;
          };
        }
        const value: unknown = Reflect.get(target, name);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return new Proxy(db, {
    get(target, name) {
      if (name === 'prepare') return (query: string) => watch(target.prepare(query));
      if (name === 'batch') {
        return (statements: D1PreparedStatement[]) =>
          statements.some((statement) => bound.has(statement))
            ? Promise.reject(new Error('D1 refused the row (injected)'))
            : target.batch(statements);
      }
      const value: unknown = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** `metric → value sum` of the funnel_daily rows of `channel` (app events only). */
export async function valueSums(channel: string): Promise<Record<string, number>> {
  const { results } = await env.FUNNEL_DB.prepare(
    "SELECT metric, SUM(value_sum) AS value FROM funnel_daily WHERE channel = ?1 AND metric LIKE 'event:%' GROUP BY metric",
  )
    .bind(channel)
    .all<{ metric: string; value: number }>();
  return Object.fromEntries(results.map((row) => [row.metric, row.value]));
}
