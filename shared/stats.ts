/**
 * One row of `GET /api/stats` (docs/operators.md): the contract between the worker that answers it and
 * the console that shows it.
 */
export interface StatsRow {
  /** The grouping's value: a day, a channel, an inviter, a link… (`''` for none). */
  key: string;
  views: number;
  visitors: number;
  taps: number;
  installs: number;
  opens: number;
  /** App events by name. */
  events: Record<string, number>;
  /** The sum of the app events' values, by name. */
  values: Record<string, number>;
  byPage: Record<string, number>;
  byAction: Record<string, number>;
  byMethod: Record<string, number>;
}
