/**
 * The deploy's privacy settings (docs/privacy.md#where-data-lives, #retention), read from the
 * environment's `wrangler.toml` variables and checked before anything is deployed:
 * - `JURISDICTION` (`eu`, `fedramp` or none) is where D1, the Durable Objects and R2 keep data. Every
 *   R2 binding must name the same `jurisdiction` (wrangler binds a jurisdiction's bucket only so);
 *   D1's jurisdiction is fixed when the database is created, so the plan says the command that
 *   creates it there; the worker reaches its Durable Objects through `namespace.jurisdiction()`.
 * - `RETENTION` must keep every store within its bounds (worker/lib/retention.ts).
 * A broken setting is a problem the deploy refuses with, naming what to change.
 */
import { type Jurisdiction, parseJurisdiction } from '../../worker/lib/jurisdiction.ts';
import { parseRetention } from '../../worker/lib/retention.ts';

/** The parts of wrangler's configuration the plan reads. */
export interface DeployConfig {
  vars: Record<string, unknown>;
  r2_buckets: readonly { binding: string; bucket_name?: string; jurisdiction?: string }[];
  d1_databases: readonly { binding: string; database_name?: string }[];
  durable_objects: { bindings: readonly { name: string; class_name: string }[] };
}

export interface PrivacyPlan {
  jurisdiction: Jurisdiction | undefined;
  /** What the deploy applies where, one line each. */
  lines: string[];
  /** Why the deploy refuses; none: it may go on. */
  problems: string[];
}

const where = (jurisdiction: Jurisdiction | undefined) =>
  jurisdiction ? `jurisdiction "${jurisdiction}"` : 'no jurisdiction';

/** The plan of `config`'s privacy settings: where each engine keeps data, and what is wrong. */
export function privacyPlan(config: DeployConfig): PrivacyPlan {
  const problems: string[] = [];
  const parsed = parseJurisdiction(typeof config.vars.JURISDICTION === 'string' ? config.vars.JURISDICTION : undefined);
  if (!parsed.ok) problems.push(parsed.problem);
  const jurisdiction = parsed.ok ? parsed.jurisdiction : undefined;
  const retention = parseRetention(typeof config.vars.RETENTION === 'string' ? config.vars.RETENTION : undefined);
  if (!retention.ok) problems.push(...retention.problems);

  const lines = [`JURISDICTION: ${jurisdiction ?? 'none'}`];
  for (const database of config.d1_databases) {
    const create = `wrangler d1 create ${database.database_name ?? database.binding}${jurisdiction ? ` --jurisdiction ${jurisdiction}` : ''}`;
    lines.push(
      `D1 ${database.binding} (${database.database_name}): ${where(jurisdiction)}, fixed when created: ${create}`,
    );
  }
  for (const bucket of config.r2_buckets) {
    lines.push(
      `R2 ${bucket.binding} (${bucket.bucket_name}): ${where(bucket.jurisdiction as Jurisdiction | undefined)}`,
    );
    if ((bucket.jurisdiction ?? undefined) !== jurisdiction) {
      const fix = jurisdiction ? `add jurisdiction = "${jurisdiction}" to it` : 'remove its jurisdiction';
      problems.push(
        `R2 bucket ${bucket.bucket_name} (${bucket.binding}) has ${where(bucket.jurisdiction as Jurisdiction | undefined)} but JURISDICTION is ${jurisdiction ?? 'none'}: ${fix} in wrangler.toml, and create the bucket with wrangler r2 bucket create ${bucket.bucket_name}${jurisdiction ? ` --jurisdiction ${jurisdiction}` : ''}`,
      );
    }
  }
  for (const object of config.durable_objects.bindings) {
    lines.push(
      `Durable Objects ${object.name} (${object.class_name}): ${jurisdiction ? `namespace.jurisdiction("${jurisdiction}")` : 'no jurisdiction'}`,
    );
  }
  return { jurisdiction, lines, problems };
}
