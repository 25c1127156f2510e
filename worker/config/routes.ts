/**
 * The configuration's admin API (docs/config.md#through-the-admin-api), for the request's app:
 * - `GET /api/config` (`config:read`) — the document stored in KV, or null when there is none (the
 *   app is then served the bundled demo in development, 503 in production);
 * - `PUT /api/config` (`config:write`) — checked exactly as `npm run config:push` checks it
 *   (storable.ts; 400 with each problem's JSON path), stored under the app's key, and audited.
 * KV is not D1, so the write and its audit entry are not one transaction. The order: KV first, the
 * entry only once KV accepted the document; an entry that cannot be appended puts the document
 * before back and answers 503, so a kept document always has its entry and a refused one none.
 */
import { type Context, Hono } from 'hono';
import { configKeyOf } from '../../shared/apps.ts';
import { recorderOf } from '../commit-change.ts';
import type { AppEnv } from '../env.ts';
import { jsonBodyLimit } from '../lib/json-body.ts';
import { settingsOf } from '../settings.ts';
import { operatorAuth } from '../sign-in/operator-auth.ts';
import { storableConfig } from './storable.ts';

/** The most bytes a document may have: KV takes 25 MiB, but a page's document is a few kB. */
const MAX_BODY = 256 * 1024;

/** Refusals' leading words, by what was wrong: as config:push says them. */
const REFUSED = {
  invalid: 'not a valid configuration',
  mainland: 'serves mainland China without its disclosures',
  production: 'not ready for production',
} as const;

/** The stored document's text, or null; a KV failure is thrown. */
const storedText = (c: Context<AppEnv>): Promise<string | null> => c.env.KV.get(configKeyOf(c.get('app')));

/** The stored text read back as JSON; text that is not JSON (written by hand) as itself. */
function documentOf(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const storeDown = (c: Context<AppEnv>, what: string, error: unknown) => {
  console.error(`Configuration not ${what}`, error instanceof Error ? error.message : String(error));
  return c.json({ error: `The configuration store is unavailable; nothing was ${what}. Try again` }, 503);
};

export const configRoute = new Hono<AppEnv>();
configRoute.use(operatorAuth('config'));

configRoute.get('/', async (c) => {
  try {
    return c.json({ app: c.get('app'), config: documentOf(await storedText(c)) });
  } catch (error) {
    return storeDown(c, 'read', error);
  }
});

configRoute.put('/', jsonBodyLimit(MAX_BODY), async (c) => {
  let value: unknown;
  try {
    value = JSON.parse(await c.req.text());
  } catch (error) {
    const problems = [{ path: '$', message: `not JSON: ${(error as Error).message}` }];
    return c.json({ error: `${REFUSED.invalid}; nothing was written`, problems }, 400);
  }
  const settings = settingsOf(c.env);
  const checked = storableConfig(value, {
    production: settings.env === 'production',
    downloadOrigin: settings.downloadOrigin,
  });
  if (!checked.ok) {
    return c.json({ error: `${REFUSED[checked.refusal]}; nothing was written`, problems: checked.problems }, 400);
  }
  const key = configKeyOf(c.get('app'));
  const text = JSON.stringify(checked.config);
  let stored: KVNamespaceGetWithMetadataResult<string, unknown>;
  try {
    stored = await c.env.KV.getWithMetadata(key);
    // The same document again changes nothing, and so appends nothing.
    if (stored.value === text) return c.json({ app: c.get('app'), config: checked.config, changed: false });
    await c.env.KV.put(key, text, { metadata: configMetadata(checked.config.revision) });
  } catch (error) {
    return storeDown(c, 'written', error);
  }
  const before = stored.value;
  try {
    await recorderOf(c)({
      kind: 'config',
      action: before === null ? 'created' : 'updated',
      target: key,
      before: documentOf(before),
      after: checked.config,
    });
  } catch (error) {
    // No entry, no change: the document before goes back, so the log holds every kept document.
    console.error('Configuration not audited', error instanceof Error ? error.message : String(error));
    await (before === null
      ? c.env.KV.delete(key)
      : c.env.KV.put(key, before, stored.metadata === null ? {} : { metadata: stored.metadata })
    ).catch((undo: unknown) =>
      console.error('Configuration not put back', undo instanceof Error ? undo.message : String(undo)),
    );
    return c.json({ error: 'The audit log is unavailable; the configuration was not changed. Try again' }, 503);
  }
  return c.json({ app: c.get('app'), config: checked.config, changed: true });
});

/**
 * KV metadata beside the document, as config:push writes it (its revision, where it came from, when);
 * who sent it is in the audit log, not here. KV metadata holds at most 1 kB.
 */
const configMetadata = (revision: string): Record<string, string> => ({
  revision: revision.slice(0, 64),
  source: 'PUT /api/config',
  at: new Date().toISOString(),
});
