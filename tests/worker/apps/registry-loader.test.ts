/**
 * The app registry's loader (worker/apps/registry-loader.ts) and schema (shared/apps.ts): a bad
 * document is refused naming where it is wrong; a store that fails or a bad document falls back to
 * the last good registry, else the one app `default`; no key is one app.
 */
import { describe, expect, it } from 'vitest';
import { parseRegistry, validateRegistry } from '../../../shared/apps.ts';
import { createAppsLoader, ONE_APP } from '../../../worker/apps/registry-loader.ts';

/** A KV holding `text` under every key, or failing every read when `text` is an Error. */
function kvOf(holder: { text: string | null | Error }): Pick<KVNamespace, 'get'> {
  return {
    get: (async () => {
      if (holder.text instanceof Error) throw holder.text;
      return holder.text;
    }) as unknown as KVNamespace['get'],
  };
}

const GOOD = JSON.stringify({ apps: [{ id: 'notes', name: 'Notes', hosts: ['go.notes.test'] }] });

describe('the registry document', () => {
  it.each([
    [{ apps: [{ id: 'Notes', name: 'x' }] }, '$.apps[0].id', 'must be a lowercase letter'],
    [{ apps: [{ id: 'notes', name: '' }] }, '$.apps[0].name', 'must not be empty'],
    [{ apps: [{ id: 'notes', name: 'x', hosts: ['not a host'] }] }, '$.apps[0].hosts[0]', 'must be a host name'],
    [{ apps: [{ id: 'notes', name: 'x', host: [] }] }, '$.apps[0].host', 'unknown key'],
    [{ apps: [] }, '$.apps', 'needs at least one app'],
    [
      {
        apps: [
          { id: 'notes', name: 'x' },
          { id: 'notes', name: 'y' },
        ],
      },
      '$.apps[1].id',
      'duplicate app id "notes"',
    ],
    [
      {
        apps: [
          { id: 'notes', name: 'x', hosts: ['a.test'] },
          { id: 'pebble', name: 'y', hosts: ['A.test'] },
        ],
      },
      '$.apps[1].hosts[0]',
      'host "a.test" is already app "notes"\'s',
    ],
  ])('refuses %j at %s', (document, path, message) => {
    const result = validateRegistry(document);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems[0]?.path).toBe(path);
    expect(result.problems[0]?.message).toContain(message);
  });

  it('refuses text that is not JSON at $', () => {
    expect(parseRegistry('{apps')).toMatchObject({ ok: false, problems: [{ path: '$' }] });
  });

  it('accepts a registry and lowercases its hosts', () => {
    const result = parseRegistry(JSON.stringify({ apps: [{ id: 'notes', name: 'Notes', hosts: ['Go.Notes.Test'] }] }));
    expect(result).toEqual({
      ok: true,
      registry: { apps: [{ id: 'notes', name: 'Notes', hosts: ['go.notes.test'] }] },
    });
  });
});

describe('the loader', () => {
  const quiet = { log: () => {} };

  it('gives one app, default, when KV has no registry', async () => {
    expect(await createAppsLoader(quiet)(kvOf({ text: null }), 0)).toBe(ONE_APP);
  });

  it.each([
    ['a bad document', '{apps'],
    ['a failing store', new Error('KV down')],
  ])('gives one app on %s with no good registry read before', async (_what, text) => {
    expect(await createAppsLoader(quiet)(kvOf({ text }), 0)).toBe(ONE_APP);
  });

  it.each([
    ['a bad document', '{apps'],
    ['a failing store', new Error('KV down')],
  ])('keeps the last good registry on %s', async (_what, text) => {
    const load = createAppsLoader(quiet);
    const holder: { text: string | null | Error } = { text: GOOD };
    const good = await load(kvOf(holder), 0);
    expect(good.hostApps.get('go.notes.test')).toBe('notes');
    holder.text = text;
    expect(await load(kvOf(holder), 0)).toBe(good);
  });

  it('reads KV once while the registry is kept', async () => {
    let reads = 0;
    const kv = {
      get: (async () => {
        reads += 1;
        return GOOD;
      }) as unknown as KVNamespace['get'],
    };
    const load = createAppsLoader(quiet);
    await Promise.all([load(kv, 30_000), load(kv, 30_000)]);
    await load(kv, 30_000);
    expect(reads).toBe(1);
  });
});
