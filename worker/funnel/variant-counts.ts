/**
 * A link's counts per variant (docs/smart-links.md#variants-and-the-sequential-test), for its
 * experiment: visitors from the visitor rows (one a day per browser, as everywhere in the funnel),
 * installs its taps brought (every method; an install under a variant was matched to its tap), and
 * one app event's count. All days the link was counted, in one batch of three reads.
 */

/** One variant's counts. */
export interface VariantCounts {
  visitors: number;
  installs: number;
  events: number;
}

const VISITORS =
  "SELECT variant, COUNT(*) AS n FROM funnel_visitors WHERE app = ?1 AND link = ?2 AND variant != '' GROUP BY variant";
const metric = (also = '') =>
  `SELECT variant, SUM(count) AS n FROM funnel_daily WHERE app = ?1 AND link = ?2 AND variant != '' AND metric GLOB ?3${also} GROUP BY variant`;
// `install:<method>` only: `install:unmatched:*` has no tap, so no variant, but is left out by name too.
const INSTALLS = metric(" AND metric NOT GLOB 'install:unmatched:*'");
const EVENTS = metric();

/** The counts of link `slug` of `app` by variant name; `event` names the app event counted (null: none). */
export async function variantCounts(
  db: D1Database,
  app: string,
  slug: string,
  event: string | null,
): Promise<Map<string, VariantCounts>> {
  const [visitors, installs, events] = await db.batch<{ variant: string; n: number }>([
    db.prepare(VISITORS).bind(app, slug),
    db.prepare(INSTALLS).bind(app, slug, 'install:*'),
    db.prepare(EVENTS).bind(app, slug, event === null ? '' : `event:${event}`),
  ]);
  const counts = new Map<string, VariantCounts>();
  const add = (rows: { variant: string; n: number }[] | undefined, field: keyof VariantCounts) => {
    for (const { variant, n } of rows ?? []) {
      const row = counts.get(variant) ?? { visitors: 0, installs: 0, events: 0 };
      row[field] += Number(n);
      counts.set(variant, row);
    }
  };
  add(visitors?.results, 'visitors');
  add(installs?.results, 'installs');
  if (event !== null) add(events?.results, 'events');
  return counts;
}
