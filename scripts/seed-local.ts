/**
 * Seeds the local KV store with what a fresh machine needs to show a complete page: the build's
 * manifest and `latest` every time, the demo configuration only into a store that has none, or on
 * `--reset` — a configuration pushed with `npm run config:push -- FILE --local` stays (docs/config.md).
 * Prints which configuration the local worker uses and where it came from.
 * Usage: node scripts/seed-local.ts [--reset] [--persist-to DIR]
 */
import { parseArgs } from 'node:util';
import { CONFIG_KEY } from '../shared/config/schema.ts';
import { DEMO_CONFIG, DEMO_CONFIG_JSON } from '../worker/config/demo.ts';
import { buildSeed } from './lib/build-entries.ts';
import { type KvEntry, kvGet, kvList, kvPut } from './lib/kv.ts';

/** The metadata stored beside the configuration: what it is and where it came from. */
export function configOrigin(revision: string, source: string): Record<string, string> {
  // KV metadata holds at most 1 kB.
  return { revision: revision.slice(0, 64), source: source.slice(0, 300), at: new Date().toISOString() };
}

/** The demo configuration as a KV entry. */
export function demoConfigEntry(): KvEntry {
  return { key: CONFIG_KEY, value: DEMO_CONFIG_JSON, metadata: configOrigin(DEMO_CONFIG.revision, 'demo') };
}

/** Every key the local store starts with. */
export function localSeed(): KvEntry[] {
  return [...buildSeed(), demoConfigEntry()];
}

export interface SeedOptions {
  persistTo?: string;
  /** Replace whatever configuration the store holds with the demo. */
  reset?: boolean;
}

function revisionOf(text: string | null): string {
  try {
    return String(JSON.parse(text ?? '').revision ?? 'without a revision');
  } catch {
    return 'that is not JSON';
  }
}

/**
 * Seeds the local store and returns one line saying which configuration it now holds: the demo
 * seeded now, or the one already there with where it came from.
 */
export function seedLocal({ persistTo, reset = false }: SeedOptions = {}): string {
  const target = { local: true, persistTo };
  const stored = reset ? undefined : kvList(CONFIG_KEY, target).find((listed) => listed.name === CONFIG_KEY);
  if (!stored) {
    kvPut(localSeed(), target);
    const why = reset ? 'as asked (--reset)' : 'into the empty local store';
    return `Configuration: the demo (revision ${DEMO_CONFIG.revision}), seeded now ${why}.`;
  }
  kvPut(buildSeed(), target);
  const { revision, source, at } = stored.metadata ?? {};
  const what = `revision ${revision ?? revisionOf(kvGet(CONFIG_KEY, target))}`;
  const from =
    source === 'demo'
      ? `the demo, seeded ${at ?? 'earlier'}`
      : source
        ? `pushed from ${source}${at ? ` at ${at}` : ''}`
        : 'origin unknown';
  return `Configuration: the one already in the local store (${what}, ${from}); kept — \`npm start -- --reset\` seeds the demo again.`;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { 'persist-to': { type: 'string' }, reset: { type: 'boolean', default: false } },
  });
  console.log(seedLocal({ persistTo: values['persist-to'], reset: values.reset }));
}
