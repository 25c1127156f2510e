/**
 * The admin API's rate limit engine (docs/operators.md#rate-limits): one Durable Object per caller
 * (a key, the admin token, a signed-in person), counting its calls in a fixed window that starts at
 * its first call. One object per caller gives exact counts wherever the calls land; its SQLite
 * storage keeps the window across the object's restarts. A refused call is not counted.
 */
import { DurableObject } from 'cloudflare:workers';

/** What one call was told: whether it may run, what is left, seconds until the window ends. */
export interface WindowAnswer {
  allowed: boolean;
  remaining: number;
  resetSeconds: number;
}

export class OperatorRateWindow extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.storage.sql.exec(
      'CREATE TABLE IF NOT EXISTS window (id INTEGER PRIMARY KEY CHECK (id = 1), start INTEGER NOT NULL, used INTEGER NOT NULL)',
    );
  }

  /** Spends one call of `limit` per `windowSeconds`, when one is left. */
  take(limit: number, windowSeconds: number): WindowAnswer {
    const now = Date.now();
    const windowMs = windowSeconds * 1000;
    const row = this.ctx.storage.sql
      .exec<{ start: number; used: number }>('SELECT start, used FROM window WHERE id = 1')
      .toArray()[0];
    const fresh = !row || now >= row.start + windowMs;
    const start = fresh ? now : row.start;
    const used = fresh ? 0 : row.used;
    const allowed = used < limit;
    const spent = allowed ? used + 1 : used;
    this.ctx.storage.sql.exec(
      'INSERT INTO window (id, start, used) VALUES (1, ?, ?) ON CONFLICT (id) DO UPDATE SET start = excluded.start, used = excluded.used',
      start,
      spent,
    );
    return {
      allowed,
      remaining: Math.max(0, limit - spent),
      resetSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)),
    };
  }
}
