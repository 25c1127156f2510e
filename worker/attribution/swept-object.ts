/**
 * What both attribution Durable Objects share (docs/attribution.md): SQLite storage whose rows
 * carry their own end, and one alarm that deletes what has ended, then sleeps until the next end.
 * The alarm's time is kept in memory, so most writes cost no storage call for it.
 */
import { DurableObject } from 'cloudflare:workers';

export abstract class SweptObject extends DurableObject<Env> {
  protected readonly sql: SqlStorage;
  private alarmAt: number | null | undefined;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
  }

  /** Deletes what has ended by `now`; returns when the next row ends, or null when none is left. */
  protected abstract sweep(now: number): number | null;

  /** Makes sure the alarm rings by `time`. */
  protected async wakeBy(time: number): Promise<void> {
    if (this.alarmAt === undefined) this.alarmAt = await this.ctx.storage.getAlarm();
    if (this.alarmAt !== null && this.alarmAt <= time) return;
    this.alarmAt = time;
    await this.ctx.storage.setAlarm(time);
  }

  override async alarm(): Promise<void> {
    const next = this.sweep(Date.now());
    this.alarmAt = next;
    if (next !== null) await this.ctx.storage.setAlarm(next);
  }
}
