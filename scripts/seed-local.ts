/**
 * Seeds the local KV store with what a fresh machine needs to show a complete page: the build's
 * manifest and `latest` every time, the demo configuration only into a store that has none, or on
 * `--reset` — a configuration pushed with `npm run config:push -- FILE --local` stays (docs/config.md).
 * The demo is two apps side by side (docs/routes.md#apps): the default at `/` and a second,
 * `sketch`, at `/@sketch/`, each with its own name and configuration; a store with a registry of its
 * own keeps it.
 * Prints which configuration the local worker uses and where it came from.
 * Usage: node scripts/seed-local.ts [--reset] [--persist-to DIR]
 */
import { parseArgs } from 'node:util';
import { APPS_KEY, type AppsRegistry, configKeyOf, DEFAULT_APP } from '../shared/apps.ts';
import { CONFIG_KEY } from '../shared/config/schema.ts';
import { DEMO_CONFIG, DEMO_CONFIG_JSON } from '../worker/config/demo.ts';
import { validateConfig } from '../worker/config/validate.ts';
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

/** The demo's second app: its id, at `/@sketch/` on the local server. */
export const SECOND_DEMO_APP = 'sketch';

/** The second demo app's configuration: the demo's, as another app with its own name and package. */
export function secondDemoConfig(): string {
  const name = { en: 'Pebble Sketch', 'zh-CN': 'Pebble 画板' };
  const schemes = { dev: 'pebblesketch-dev', pro: 'pebblesketch' };
  const document = {
    ...DEMO_CONFIG,
    revision: `${DEMO_CONFIG.revision}-sketch`,
    appData: DEMO_CONFIG.appData.map((item) => ({
      ...item,
      name,
      schemes,
      ...(item.package && { package: 'com.pebble.sketch' }),
      ...(item.bundle_id && { bundle_id: 'com.pebble.sketch' }),
      ...(item.download_url && { download_url: '/android/pebble-sketch-1.2.0.apk' }),
      ...(item.store_url && { store_url: 'https://play.google.com/store/apps/details?id=com.pebble.sketch' }),
    })),
    commonConfig: {
      ...DEMO_CONFIG.commonConfig,
      tagline: { en: 'Draw it before it fades', 'zh-CN': '灵感一现，随手画下' },
      description: { en: 'Pebble Sketch: a quick canvas in your pocket.', 'zh-CN': 'Pebble 画板：口袋里的速写本。' },
    },
    links: { ...DEMO_CONFIG.links, android_package: 'com.pebble.sketch', apple_app_ids: [] },
  };
  const checked = validateConfig(document);
  if (!checked.ok) throw new Error(`The second demo app's configuration is invalid: ${checked.problems[0]?.path}`);
  return JSON.stringify(document);
}

/** The demo's registry: the default app and the second, both on every host (no hosts listed). */
export const DEMO_REGISTRY: AppsRegistry = {
  apps: [
    { id: DEFAULT_APP, name: 'Pebble Notes', hosts: [] },
    { id: SECOND_DEMO_APP, name: 'Pebble Sketch', hosts: [] },
  ],
};

/** The second demo app's keys: the registry and its configuration. */
export function secondAppSeed(): KvEntry[] {
  return [
    { key: APPS_KEY, value: JSON.stringify(DEMO_REGISTRY) },
    {
      key: configKeyOf(SECOND_DEMO_APP),
      value: secondDemoConfig(),
      metadata: configOrigin(`${DEMO_CONFIG.revision}-sketch`, 'demo'),
    },
  ];
}

/** Every key the local store starts with. */
export function localSeed(): KvEntry[] {
  return [...buildSeed(), demoConfigEntry(), ...secondAppSeed()];
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
  const keys = reset ? [] : kvList('', target);
  const stored = keys.find((listed) => listed.name === CONFIG_KEY);
  const apps = `Apps: the default at /, ${SECOND_DEMO_APP} at /@${SECOND_DEMO_APP}/ (docs/routes.md#apps).`;
  if (!stored) {
    kvPut(localSeed(), target);
    const why = reset ? 'as asked (--reset)' : 'into the empty local store';
    return `Configuration: the demo (revision ${DEMO_CONFIG.revision}), seeded now ${why}.\n${apps}`;
  }
  // A store from before apps gets the second demo app; a registry of the operator's stays.
  const hasRegistry = keys.some((listed) => listed.name === APPS_KEY);
  kvPut([...buildSeed(), ...(hasRegistry ? [] : secondAppSeed())], target);
  const { revision, source, at } = stored.metadata ?? {};
  const what = `revision ${revision ?? revisionOf(kvGet(CONFIG_KEY, target))}`;
  const from =
    source === 'demo'
      ? `the demo, seeded ${at ?? 'earlier'}`
      : source
        ? `pushed from ${source}${at ? ` at ${at}` : ''}`
        : 'origin unknown';
  const kept = `Configuration: the one already in the local store (${what}, ${from}); kept — \`npm start -- --reset\` seeds the demo again.`;
  return hasRegistry ? kept : `${kept}\n${apps}`;
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: { 'persist-to': { type: 'string' }, reset: { type: 'boolean', default: false } },
  });
  console.log(seedLocal({ persistTo: values['persist-to'], reset: values.reset }));
}
