/**
 * `/api/conversions/destinations` (docs/conversions.md#admin-api): add, read, change, remove, send a
 * test event, read the log; a wrong field is a 400 naming it; a token is never answered, nor written
 * to the audit log.
 */
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConversionAttemptView, DestinationView } from '../../../shared/conversions.ts';
import { getDestination } from '../../../worker/conversions/destinations.ts';
import { testEvent } from '../../../worker/conversions/test-event.ts';
import { expectConforms } from '../conforms.ts';
import { addDestination, admin, FAKE, fakeEnv, freshKey, removeDestinations } from './conversion-fixtures.ts';

afterEach(removeDestinations);

describe('conversion destinations', () => {
  it('adds, lists, changes and removes a destination, never answering its token', async () => {
    const made = await addDestination({
      platform: 'meta',
      name: 'Meta (spring)',
      settings: { datasetId: '1234567890', appId: '42' },
      token: 'EAAB-secret-token',
      events: { purchase: 'Purchase', level_up: 'AchieveLevel' },
    });
    expect(made).toMatchObject({ platform: 'meta', name: 'Meta (spring)', hasToken: true, enabled: true });
    expect(JSON.stringify(made)).not.toContain('EAAB-secret-token');
    const listed = await (await admin('/destinations')).json<{ destinations: DestinationView[] }>();
    expect(listed.destinations.map((d) => d.id)).toEqual([made.id]);
    const changed = await admin(`/destinations/${made.id}`, { method: 'PATCH', body: { enabled: false, name: 'off' } });
    expect(await changed.json()).toMatchObject({ enabled: false, name: 'off', hasToken: true });
    const audit = await env.FUNNEL_DB.prepare('SELECT * FROM audit_entries').all();
    expect(JSON.stringify(audit.results)).toContain(made.id);
    expect(JSON.stringify(audit.results)).not.toContain('EAAB-secret-token');
    expect((await admin(`/destinations/${made.id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await admin(`/destinations/${made.id}`)).status).toBe(404);
  });

  it.each([
    [{ platform: 'snapchat', settings: {} }, 'platform'],
    [{ platform: 'meta', settings: { datasetId: 'abc', appId: '1' }, token: 't' }, 'settings.datasetId'],
    [{ platform: 'meta', settings: { datasetId: '1', appId: '1' } }, 'token'],
    [{ platform: 'ga4', settings: { measurementId: 'UA-1' }, token: 't' }, 'settings.measurementId'],
    [
      { platform: 'postback', settings: { url: 'https://net.example/p?x={nope}' } },
      'settings.url: no macro named {nope}',
    ],
    [{ platform: 'postback', settings: { url: 'https://10.0.0.5/p?e={event}' } }, 'settings.url: must not point to'],
    [{ platform: 'postback', settings: { url: 'https://net.example/p', body: '{"e":"{bad}"}' } }, 'settings.body'],
    [{ platform: 'tiktok', settings: { tiktokAppId: '1' }, token: 't', events: { 'Bad Name': 'x' } }, 'events'],
  ])('refuses %j with a 400 naming %s', async (body, field) => {
    const response = await admin('/destinations', { method: 'POST', body });
    expect(response.status).toBe(400);
    expect((await response.json<{ error: string }>()).error).toContain(field);
  });

  it('answers as the OpenAPI document says, refusals included', async () => {
    const path = '/api/conversions/destinations';
    const made = await admin('/destinations', {
      method: 'POST',
      body: { platform: 'ga4', settings: { measurementId: 'G-ABC123' }, token: 'secret' },
    });
    const view = (await expectConforms(made, path)) as DestinationView;
    await expectConforms(await admin('/destinations'), path, 'get');
    await expectConforms(await admin('/destinations', { method: 'POST', body: { platform: 'x' } }), path);
    const one = `${path}/{id}`;
    await expectConforms(await admin(`/destinations/${view.id}`), one, 'get');
    await expectConforms(
      await admin(`/destinations/${view.id}`, { method: 'PATCH', body: { name: 'GA4' } }),
      one,
      'patch',
    );
    await expectConforms(await admin(`/destinations/${view.id}/attempts`), `${one}/attempts`, 'get');
    await expectConforms(await admin(`/destinations/${view.id}/attempts?limit=0`), `${one}/attempts`, 'get');
    await expectConforms(await admin('/destinations/cd_AAAAAAAAAAAAAAAAAAAAAA'), one, 'get');
  });

  it('answers 404 for a destination of no one and 400 for a bad log limit', async () => {
    expect((await admin('/destinations/cd_AAAAAAAAAAAAAAAAAAAAAA')).status).toBe(404);
    const made = await addDestination({ platform: 'oceanengine', settings: {} });
    expect((await admin(`/destinations/${made.id}/attempts?limit=500`)).status).toBe(400);
  });

  it('sends a test event now and shows it in the log, with what the platform answered', async () => {
    const key = freshKey();
    const made = await addDestination({
      platform: 'tiktok',
      settings: { tiktokAppId: '7000000001' },
      token: 'tt-token',
    });
    const destination = await getDestination(env.FUNNEL_DB, 'default', made.id);
    if (!destination) throw new Error('not stored');
    // The route's own send goes to TikTok itself; the fake stands in for it here (CONVERSIONS_ORIGIN).
    expect(await testEvent(fakeEnv(key), destination)).toMatchObject({ delivered: true, status: 200, error: '' });
    const viaRoute = await (await admin(`/destinations/${made.id}/test`, { method: 'POST' })).json<{
      delivered: boolean;
    }>();
    expect(viaRoute.delivered).toBe(false);
    const { attempts } = await (await admin(`/destinations/${made.id}/attempts`)).json<{
      attempts: ConversionAttemptView[];
    }>();
    expect(attempts.map((attempt) => [attempt.name, attempt.outcome])).toEqual([
      ['test', 'failed'],
      ['test', 'delivered'],
    ]);
    expect(JSON.stringify(attempts)).not.toContain('tt-token');
    void FAKE;
  });
});
