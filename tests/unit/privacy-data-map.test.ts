/**
 * docs/privacy.md's data map cannot drift from the code: every D1 table and column the migrations
 * leave, every table a Durable Object class creates, every Durable Object class, queue and bucket
 * wrangler.toml binds, and every KV and R2 key the code makes has its row, with exactly its columns;
 * no row names a table that is gone; and every retention the map and the retention table state is
 * the one worker/lib/retention.ts applies, with its default and bounds.
 */

import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unstable_readConfig } from 'wrangler';
import { d1Tables, objectTables, tableUnder } from '../../scripts/lib/data-map.ts';
import { ROOT } from '../../scripts/lib/run.ts';
import { APPS_KEY, appKvKey, configKeyOf } from '../../shared/apps.ts';
import { KV_LATEST_BUILD, kvBuildManifestKey } from '../../shared/build-manifest.ts';
import { PARENTS_KEY } from '../../worker/apk/parents.ts';
import { headKey } from '../../worker/audit/sign-head.ts';
import { cardKey } from '../../worker/campaign/link-card.ts';
import { partKey } from '../../worker/exports/daily-export.ts';
import { RETENTION_RULES, type RetentionName } from '../../worker/lib/retention.ts';

const doc = readFileSync(join(ROOT, 'docs/privacy.md'), 'utf8');
const rows = tableUnder(doc, 'Data map');
const where = (row: Record<string, string>) => (row.Where ?? '').replace(/&lt;/g, '<').replace(/&gt;/g, '>');
const rowOf = (name: string) => rows.find((row) => where(row) === name);
const fieldsOf = (row: Record<string, string> | undefined) =>
  (row?.Fields ?? '')
    .replace(/`/g, '')
    .split(',')
    .map((field) => field.trim())
    .sort();

/** The rows of an engine (`KV`, `R2 EXPORTS`) as key patterns: `config:<app>` matches `config:notes`. */
function patterns(prefix: string): RegExp[] {
  return rows
    .map(where)
    .filter((name) => name.startsWith(`${prefix} `))
    .flatMap((name) => name.slice(prefix.length + 1).split(', '))
    .map((pattern) => new RegExp(`^${pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/<[^>]+>/g, '[^/:]+')}`));
}

/** Whether the row named `name` (`R2 EXPORTS exports/, apps/<app>/exports/`) covers `store` (`R2 EXPORTS apps/<app>/exports/`). */
function covers(name: string, store: string): boolean {
  const [first = '', ...more] = name.split(', ');
  const head = first.slice(0, first.lastIndexOf(' ') + 1);
  return [first, ...more.map((item) => head + item)].includes(store);
}

/** The tables of `tables` (`D1` or `DO`) whose row is missing or lists other columns. */
function gaps(engine: 'D1' | 'DO', tables: Map<string, string[]>): string[] {
  return [...tables].flatMap(([table, columns]) => {
    const row = rowOf(`${engine} ${table}`);
    if (!row) return [`${engine} ${table}: no row`];
    return JSON.stringify(fieldsOf(row)) === JSON.stringify([...columns].sort())
      ? []
      : [`${engine} ${table}: other columns`];
  });
}

const production = unstable_readConfig({ config: join(ROOT, 'wrangler.toml'), env: 'production' });

describe('the data map (docs/privacy.md)', () => {
  it.each([...d1Tables(join(ROOT, 'migrations'))])('has D1 table %s with exactly its columns', (table, columns) => {
    const row = rowOf(`D1 ${table}`);
    expect(row, `add a row "D1 ${table}" to docs/privacy.md#data-map`).toBeDefined();
    expect(fieldsOf(row)).toEqual([...columns].sort());
  });

  it.each([...objectTables(join(ROOT, 'worker'))])(
    'has Durable Object table %s with exactly its columns',
    (table, columns) => {
      const row = rowOf(`DO ${table}`);
      expect(row, `add a row "DO ${table}" to docs/privacy.md#data-map`).toBeDefined();
      expect(fieldsOf(row)).toEqual([...columns].sort());
    },
  );

  it('fails on a planted migration: a new column, a new table, without their rows', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lander-migrations-'));
    try {
      cpSync(join(ROOT, 'migrations'), dir, { recursive: true });
      expect(gaps('D1', d1Tables(dir))).toEqual([]);
      writeFileSync(
        join(dir, '9999_planted.sql'),
        'ALTER TABLE funnel_visitors ADD COLUMN agent TEXT;\nCREATE TABLE visitor_addresses (visitor TEXT, address TEXT);\n',
      );
      expect(gaps('D1', d1Tables(dir))).toEqual(['D1 funnel_visitors: other columns', 'D1 visitor_addresses: no row']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names no D1 or Durable Object table that is gone', () => {
    const d1 = new Set([...d1Tables(join(ROOT, 'migrations')).keys()].map((table) => `D1 ${table}`));
    const objects = new Set([...objectTables(join(ROOT, 'worker')).keys()].map((table) => `DO ${table}`));
    const named = rows.map(where).filter((name) => /^(D1|DO) /.test(name));
    expect(named.filter((name) => !d1.has(name) && !objects.has(name))).toEqual([]);
  });

  it('has every Durable Object class, queue and R2 bucket wrangler.toml binds', () => {
    for (const { class_name } of production.durable_objects.bindings) {
      expect(
        rows.some((row) => where(row).startsWith(`DO ${class_name} `)),
        class_name,
      ).toBe(true);
    }
    for (const { binding } of production.queues.producers ?? [])
      expect(rowOf(`Queue ${binding}`), binding).toBeDefined();
    for (const { binding } of production.r2_buckets) {
      expect(
        rows.some((row) => where(row).startsWith(`R2 ${binding} `)),
        binding,
      ).toBe(true);
    }
  });

  it('covers every KV key the code makes', () => {
    const keys = [
      configKeyOf('default'),
      configKeyOf('notes'),
      APPS_KEY,
      PARENTS_KEY,
      appKvKey('notes', PARENTS_KEY),
      KV_LATEST_BUILD,
      kvBuildManifestKey('b-1'),
    ];
    const kv = patterns('KV');
    for (const key of keys)
      expect(
        kv.some((pattern) => pattern.test(key)),
        key,
      ).toBe(true);
  });

  it('covers every R2 key the code makes', () => {
    const exports = patterns('R2 EXPORTS');
    for (const key of [
      partKey('default', 'install', '2026-11-20', 0),
      partKey('notes', 'open', '2026-11-20', 1),
      headKey('2026-11-20'),
    ]) {
      expect(
        exports.some((pattern) => pattern.test(key)),
        key,
      ).toBe(true);
    }
    expect(patterns('R2 APK_PARENTS').some((pattern) => pattern.test('pebble-notes-2.4.0.apk'))).toBe(true);
    const cards = patterns('R2 EXPORTS');
    expect(
      cards.some((pattern) => pattern.test(cardKey('notes', 'spring-sale'))),
      cardKey('notes', 'spring-sale'),
    ).toBe(true);
  });

  it("states each store's retention as worker/lib/retention.ts applies it, and names every store it governs", () => {
    for (const [name, rule] of Object.entries(RETENTION_RULES)) {
      const stated = `RETENTION.${name}: ${rule.days} days (${rule.min}–${rule.max})`;
      for (const store of rule.stores) {
        const matching = rows.filter((row) => covers(where(row), store));
        expect(matching.length, `${store} has a row`).toBeGreaterThan(0);
        for (const row of matching) expect(row.Kept, store).toContain(stated);
      }
    }
    for (const row of rows) {
      const named = /RETENTION\.(\w+)/.exec(row.Kept ?? '')?.[1];
      if (!named) continue;
      expect(Object.hasOwn(RETENTION_RULES, named), `${where(row)}: RETENTION.${named}`).toBe(true);
      const stores: readonly string[] = RETENTION_RULES[named as RetentionName].stores;
      expect(
        stores.some((store) => where(row).includes(store.replace(/^R2 EXPORTS /, ''))),
        where(row),
      ).toBe(true);
    }
  });

  it('has a retention table with each default and bounds', () => {
    const table = tableUnder(doc, 'Retention');
    expect(table.map((row) => row.Retention?.replace(/`/g, ''))).toEqual(Object.keys(RETENTION_RULES));
    for (const row of table) {
      const rule = RETENTION_RULES[(row.Retention ?? '').replace(/`/g, '') as RetentionName];
      expect(row.Default).toBe(`${rule.days} days`);
      expect(row.Bounds).toBe(`${rule.min}–${rule.max}`);
    }
  });
});
