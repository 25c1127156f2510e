/**
 * How long each store keeps what it keeps (docs/privacy.md#retention): one entry per retention, its
 * default and bounds in days, and the stores it governs. The deployment sets any of them in
 * `RETENTION`, a JSON object of days (`{"visitors": 90, "exports": 30}`); the daily Cron and the
 * attribution objects' alarms delete what is older. A value out of its bounds, or a name not listed,
 * is refused with its reason: `npm run deploy` refuses to deploy it, and a worker that is given one
 * anyway keeps every default and logs why, once per isolate.
 */

export interface RetentionRule {
  /** Days kept when `RETENTION` does not say. */
  days: number;
  /** The fewest days allowed: what the product needs to work (a re-run export, a retried message). */
  min: number;
  /** The most days allowed. */
  max: number;
  /** The stores this retention governs, as docs/privacy.md's data map names them. */
  stores: readonly string[];
  /** Why it is kept at all. */
  why: string;
}

export const RETENTION_RULES = {
  webhooks: {
    days: 30,
    min: 2,
    max: 90,
    stores: [
      'D1 webhook_events',
      'D1 webhook_deliveries',
      'D1 webhook_attempts',
      'D1 conversion_installs',
      'D1 conversion_deliveries',
      'D1 conversion_attempts',
    ],
    why: "resending an event, a late re-run of the daily export, the deliveries' logs",
  },
  visitors: {
    days: 400,
    min: 1,
    max: 800,
    stores: ['D1 funnel_visitors'],
    why: 'unique visitors over a range, a year back',
  },
  funnel: {
    days: 3650,
    min: 90,
    max: 3650,
    stores: ['D1 funnel_daily', 'D1 funnel_revenue', 'D1 cohort_daily'],
    why: "the funnel's daily counts (no person in them)",
  },
  fraud: {
    days: 90,
    min: 7,
    max: 400,
    stores: ['D1 fraud_installs', 'D1 fraud_flags', 'D1 fraud_identities'],
    why: 'fraud rules and anomalies look back at most 90 days',
  },
  test_answers: {
    days: 30,
    min: 1,
    max: 90,
    stores: ['D1 test_answers'],
    why: "a test device's answers, for the operator testing the app",
  },
  store_postbacks: {
    days: 400,
    min: 30,
    max: 800,
    stores: ['D1 store_postbacks'],
    why: "Apple's postbacks, counted per day, a year back",
  },
  losses: {
    days: 90,
    min: 7,
    max: 400,
    stores: ['D1 losses'],
    why: 'what the worker gave up on, read at /api/losses',
  },
  ledger_clicks: {
    days: 90,
    min: 7,
    max: 180,
    stores: [
      'DO AttributionLedger clicks',
      'DO AttributionLedger click_visitors',
      'DO AttributionLedger click_claims',
      'DO AttributionLedger click_arms',
    ],
    why: 'a carrier (a stamped APK, a store referrer) may be opened weeks after its tap',
  },
  ledger_answers: {
    days: 30,
    min: 1,
    max: 90,
    stores: ['DO AttributionLedger answers', 'DO AttributionLedger notes', 'DO AttributionLedger flags'],
    why: "an install's retry gets the answer it was given, and is counted once",
  },
  exports: {
    days: 90,
    min: 7,
    max: 730,
    stores: ['R2 EXPORTS exports/', 'R2 EXPORTS apps/<app>/exports/'],
    why: "the daily exports, for the operator's own warehouse to fetch",
  },
} as const satisfies Record<string, RetentionRule>;

export type RetentionName = keyof typeof RETENTION_RULES;
export type Retention = Readonly<Record<RetentionName, number>>;

const NAMES = Object.keys(RETENTION_RULES) as RetentionName[];

export const DEFAULT_RETENTION: Retention = Object.freeze(
  Object.fromEntries(NAMES.map((name) => [name, RETENTION_RULES[name].days])) as Record<RetentionName, number>,
);

export type RetentionResult = { ok: true; retention: Retention } | { ok: false; problems: string[] };

/**
 * `RETENTION`'s text read against the rules: every named retention a whole number of days within
 * its bounds, no other name. Empty or absent: the defaults.
 */
export function parseRetention(text: string | undefined): RetentionResult {
  if (!text?.trim()) return { ok: true, retention: DEFAULT_RETENTION };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problems: ['RETENTION: not JSON; a JSON object of days, e.g. {"visitors": 90}'] };
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, problems: ['RETENTION: must be a JSON object of days, e.g. {"visitors": 90}'] };
  }
  const problems: string[] = [];
  const retention: Record<string, number> = { ...DEFAULT_RETENTION };
  for (const [name, days] of Object.entries(value)) {
    if (!Object.hasOwn(RETENTION_RULES, name)) {
      problems.push(`RETENTION.${name}: unknown; one of ${NAMES.join(', ')}`);
      continue;
    }
    const { min, max } = RETENTION_RULES[name as RetentionName];
    if (typeof days !== 'number' || !Number.isInteger(days)) {
      problems.push(`RETENTION.${name}: must be a whole number of days (${min}–${max})`);
    } else if (days < min || days > max) {
      problems.push(`RETENTION.${name}: ${days} days is out of bounds; between ${min} and ${max} days`);
    } else retention[name] = days;
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, retention: Object.freeze(retention) as Retention };
}

/** Milliseconds in a day: retentions are whole days. */
export const RETENTION_DAY_MS = 86_400_000;
