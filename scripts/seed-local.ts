/**
 * Seeds the local KV store with what a fresh machine needs to show a complete page.
 * Usage: node scripts/seed-local.ts [--persist-to DIR]
 */
import { parseArgs } from 'node:util';
import { CONFIG_KEY } from '../shared/config/schema.ts';
import { DEMO_CONFIG_JSON } from '../worker/config/demo.ts';
import { buildSeed } from './lib/build-entries.ts';
import { type KvEntry, kvPut } from './lib/kv.ts';

/** Every key the local store starts with. */
export function localSeed(): KvEntry[] {
  return [...buildSeed(), { key: CONFIG_KEY, value: DEMO_CONFIG_JSON }];
}

if (import.meta.main) {
  const { values } = parseArgs({ options: { 'persist-to': { type: 'string' } } });
  kvPut(localSeed(), { local: true, persistTo: values['persist-to'] });
}
