/**
 * `GET /api/openapi.json` and `GET /api/docs` inside workerd (docs/api.md): the served document is
 * the generated one, the reference page is plain escaped HTML under the usual CSP, and the real
 * answers of every public API conform to the document (conforms.ts).
 */
import { exports } from 'cloudflare:workers';
import { describe, expect, inject, it, vi } from 'vitest';
import { NONCE_FREE_CSP } from '../../../worker/lib/headers.ts';
import { openApiDocument } from '../../../worker/openapi/document.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { installBody, PHONES, registerTestDevice } from '../../fixtures/fake-app.ts';
import { APP_HEADERS, adminGet, campaign, carrierLink, click, network, newInstallId, send } from '../app-calls.ts';
import { expectConforms, servedDocument } from '../conforms.ts';
import { get, ORIGIN } from '../helpers.ts';
import { privacy, requestBody } from '../privacy/privacy-fixtures.ts';

const APP = 'com.pebble.notes';
const admin = { authorization: `Bearer ${DEV_ADMIN_TOKEN}` };

describe('GET /api/openapi.json', () => {
  it('serves the generated OpenAPI 3.1 document as JSON', async () => {
    const res = await get('/api/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual(openApiDocument());
    expect((await servedDocument()).paths['/api/a/install']).toBeDefined();
  });

  it('is checked for real: an answer the document does not describe fails the check', async () => {
    const wrong = new Response(JSON.stringify({ matched: true }), { headers: { 'content-type': 'application/json' } });
    await expect(expectConforms(wrong, '/api/a/install')).rejects.toThrow();
    await expect(expectConforms(new Response(null, { status: 418 }), '/api/a/install')).rejects.toThrow();
  });
});

describe('GET /api/docs', () => {
  it('is a readable reference of every path, with no script and the usual CSP', async () => {
    const res = await get('/api/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(NONCE_FREE_CSP);
    const html = await res.text();
    for (const path of Object.keys((await servedDocument()).paths)) expect(html).toContain(`<code>${path}</code>`);
    expect(html).not.toContain('<script');
    expect(html).toContain('href="/api/docs.css"');
    expect((await get('/api/docs.css')).headers.get('content-type')).toMatch(/^text\/css/);
  });
});

describe('real answers conform to the document', () => {
  it('/api/a/*: matched, unmatched, a test answer with its explanation, events, refusals', async () => {
    const at = network(12);
    const d = campaign({ channel: 'conform' });
    const tapped = await click(PHONES.iPhone15, at(1), { d });
    const app = { ...APP_HEADERS, 'cf-connecting-ip': at(1) };
    const installId = newInstallId();
    const carriers = { clipboard: carrierLink(`${tapped.clickId}.${d}`) };
    const matched = await send('/api/a/install', installBody(PHONES.iPhone15, installId, carriers), app);
    expect(await expectConforms(matched, '/api/a/install')).toMatchObject({ matched: true });
    const testId = newInstallId();
    await registerTestDevice(send, testId);
    await registerTestDevice(send, installId);
    const tested = await send('/api/a/install', { ...installBody(PHONES.iPhone15, testId), test: true }, app);
    expect(await expectConforms(tested, '/api/a/install')).toHaveProperty('explain');
    const open = await send('/api/a/open', { app: APP, installId, carrier: carriers.clipboard, test: true }, app);
    expect(await expectConforms(open, '/api/a/open')).toMatchObject({ matched: true, explain: {} });
    const batch = { app: APP, installId, events: [{ id: 'conform-0001', name: 'signup', value: 1 }] };
    expect(await expectConforms(await send('/api/a/event', batch, app), '/api/a/event')).toBeNull();
    const refused = await send('/api/a/event', { app: APP, installId, events: [] }, app);
    expect(refused.status).toBe(400);
    await expectConforms(refused, '/api/a/event');
    await expectConforms(await send('/api/a/click', { clickId: 'x' }, app), '/api/a/click');
  });

  it('/api/trace and /api/device', async () => {
    await expectConforms(await get('/api/trace'), '/api/trace', 'get');
    await expectConforms(
      await get('/api/device', { headers: { 'sec-ch-ua-model': '"Pixel 8"' } }),
      '/api/device',
      'get',
    );
  });

  it('the webhooks admin API: every call, its refusals included', async () => {
    const call = (path: string, method = 'GET', body?: unknown) =>
      exports.default.fetch(
        new Request(`${ORIGIN}/api/webhooks${path}`, {
          method,
          headers: { ...admin, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );
    const receiver = `${inject('webhookReceiver')}/r/openapi-${crypto.randomUUID().slice(0, 8)}`;
    const created = await call('', 'POST', { url: receiver, events: ['event'], description: 'conform' });
    expect(created.status).toBe(201);
    const { endpoint } = (await expectConforms(created, '/api/webhooks')) as { endpoint: { id: string } };
    const at = (tail = '') => `/${endpoint.id}${tail}`;
    await expectConforms(await call('', 'POST', { url: 'https://10.0.0.1/' }), '/api/webhooks');
    await expectConforms(await call('', 'POST', { url: 'https://x.example.com/', events: [] }), '/api/webhooks');
    await expectConforms(await call(''), '/api/webhooks', 'get');
    await expectConforms(await call(at()), '/api/webhooks/{id}', 'get');
    await expectConforms(await call('/ep_AAAAAAAAAAAAAAAA'), '/api/webhooks/{id}', 'get');
    await expectConforms(await call(at(), 'PATCH', { description: 'changed' }), '/api/webhooks/{id}', 'patch');
    await expectConforms(await call(at(), 'PATCH', { events: ['x'] }), '/api/webhooks/{id}', 'patch');
    await expectConforms(await call(at('/test'), 'POST'), '/api/webhooks/{id}/test');
    const rotated = await call(at('/rotate'), 'POST');
    expect(await expectConforms(rotated, '/api/webhooks/{id}/rotate')).toMatchObject({
      endpoint: { previousSecretUntil: expect.any(String) },
    });
    await expectConforms(await call(at('/test'), 'POST'), '/api/webhooks/{id}/test');
    const attempts = await call(at('/attempts?limit=5'));
    expect(
      ((await expectConforms(attempts, '/api/webhooks/{id}/attempts', 'get')) as { attempts: [] }).attempts,
    ).toHaveLength(2);
    const badLimit = await call(at('/attempts?limit=0'));
    expect(await expectConforms(badLimit, '/api/webhooks/{id}/attempts', 'get')).toEqual({
      error: 'limit: must be a whole number from 1 to 200',
    });
    const range = { from: '2026-11-01T00:00:00Z', to: '2026-11-02T00:00:00Z' };
    await expectConforms(await call(at('/resend'), 'POST', range), '/api/webhooks/{id}/resend');
    await expectConforms(await call(at('/resend'), 'POST', { id: 'msg_none' }), '/api/webhooks/{id}/resend');
    await expectConforms(await call(at('/resend'), 'POST', { id: 'nope' }), '/api/webhooks/{id}/resend');
    await call(at(), 'PATCH', { enabled: false });
    await expectConforms(await call(at('/resend'), 'POST', range), '/api/webhooks/{id}/resend');
    await expectConforms(await call(at(), 'DELETE'), '/api/webhooks/{id}', 'delete');
    await expectConforms(await call(at(), 'DELETE'), '/api/webhooks/{id}', 'delete');
  });

  it('the privacy API: a request made, listed, read with its receipt, its data, cancelled, and the receipt key', async () => {
    await expectConforms(await privacy('/api/privacy/receipt-key'), '/api/privacy/receipt-key', 'get');
    const visitor = { type: 'visitor_id' as const, value: `v-conform-${crypto.randomUUID()}` };
    const made = await privacy('/api/privacy/requests', {
      method: 'POST',
      body: requestBody('access', visitor, {
        status_callback_urls: [`${inject('webhookReceiver')}/r/openapi-privacy-${crypto.randomUUID().slice(0, 8)}`],
      }),
    });
    expect(made.status).toBe(201);
    const { subject_request_id: id } = (await expectConforms(made, '/api/privacy/requests')) as {
      subject_request_id: string;
    };
    const again = await privacy('/api/privacy/requests', {
      method: 'POST',
      body: requestBody('access', visitor, { subject_request_id: id }),
    });
    expect(again.status).toBe(409);
    await expectConforms(again, '/api/privacy/requests');
    const wrong = await privacy('/api/privacy/requests', { method: 'POST', body: { subject_request_type: 'forget' } });
    expect(wrong.status).toBe(400);
    await expectConforms(wrong, '/api/privacy/requests');
    await expectConforms(await privacy('/api/privacy/requests'), '/api/privacy/requests', 'get');
    await vi.waitFor(
      async () => {
        const one = await privacy(`/api/privacy/requests/${id}`);
        expect(await expectConforms(one, '/api/privacy/requests/{id}', 'get')).toMatchObject({
          request_status: 'completed',
          receipt: { alg: 'Ed25519' },
        });
      },
      { timeout: 20_000, interval: 100 },
    );
    const data = await privacy(`/api/privacy/requests/${id}/data`);
    expect(data.status).toBe(200);
    await expectConforms(data, '/api/privacy/requests/{id}/data', 'get');
    const unknown = `/api/privacy/requests/${crypto.randomUUID()}`;
    await expectConforms(await privacy(unknown), '/api/privacy/requests/{id}', 'get');
    await expectConforms(await privacy(`${unknown}/data`), '/api/privacy/requests/{id}/data', 'get');
    await expectConforms(await privacy(unknown, { method: 'DELETE' }), '/api/privacy/requests/{id}', 'delete');
    const done = await privacy(`/api/privacy/requests/${id}`, { method: 'DELETE' });
    expect(done.status).toBe(409);
    await expectConforms(done, '/api/privacy/requests/{id}', 'delete');
    // An erasure: no data to read; cancelled while pending (204), or already carried out (409).
    const erasure = await privacy('/api/privacy/requests', { method: 'POST', body: requestBody('erasure', visitor) });
    const { subject_request_id: erased } = await erasure.json<{ subject_request_id: string }>();
    await expectConforms(
      await privacy(`/api/privacy/requests/${erased}`, { method: 'DELETE' }),
      '/api/privacy/requests/{id}',
      'delete',
    );
    const noData = await privacy(`/api/privacy/requests/${erased}/data`);
    expect(noData.status).toBe(409);
    await expectConforms(noData, '/api/privacy/requests/{id}/data', 'get');
  });

  it('the admin API: links, stats, test installs, one install', async () => {
    const created = await exports.default.fetch(
      new Request(`${ORIGIN}/api/links`, {
        method: 'POST',
        body: JSON.stringify({ channel: 'conform', expiresAt: '2030-01-01T00:00:00Z' }),
        headers: { ...admin, 'content-type': 'application/json' },
      }),
    );
    expect(created.status).toBe(201);
    await expectConforms(created, '/api/links');
    await expectConforms(await adminGet('/api/links'), '/api/links', 'get');
    await expectConforms(await adminGet('/api/stats?by=channel'), '/api/stats', 'get');
    await expectConforms(await adminGet('/api/stats?by=nothing'), '/api/stats', 'get');
    await expectConforms(await adminGet('/api/stats', 'wrong'), '/api/stats', 'get');
    await expectConforms(await adminGet('/api/cohorts?by=channel&ages=3'), '/api/cohorts', 'get');
    await expectConforms(await adminGet('/api/cohorts?by=os'), '/api/cohorts', 'get');
    await expectConforms(await adminGet('/api/store-postbacks?since=30d'), '/api/store-postbacks', 'get');
    await expectConforms(await adminGet('/api/store-postbacks?since=soon'), '/api/store-postbacks', 'get');
    const installId = newInstallId();
    await registerTestDevice(send, installId);
    await send('/api/a/install', { ...installBody(PHONES.galaxyS23, installId), test: true }, APP_HEADERS);
    await expect
      .poll(
        async () =>
          (
            (await (await adminGet(`/api/test-installs?app=${APP}&installId=${installId}`)).json()) as {
              installs: unknown[];
            }
          ).installs.length,
      )
      .toBe(1);
    // A link's variants and experiment (docs/smart-links.md#variants-and-the-sequential-test).
    const { slug } = await created.clone().json<{ slug: string }>();
    const variants = {
      variants: [
        { name: 'a', weight: 1 },
        { name: 'b', weight: 1, headline: 'Free' },
      ],
    };
    const put = (body: unknown) =>
      exports.default.fetch(
        new Request(`${ORIGIN}/api/links/${slug}/variants`, {
          method: 'PUT',
          body: JSON.stringify(body),
          headers: { ...admin, 'content-type': 'application/json' },
        }),
      );
    await expectConforms(await adminGet(`/api/links/${slug}/variants`), '/api/links/{slug}/variants', 'get');
    await expectConforms(await put(variants), '/api/links/{slug}/variants', 'put');
    expect(
      await expectConforms(await adminGet(`/api/links/${slug}/variants`), '/api/links/{slug}/variants', 'get'),
    ).toEqual({
      ...variants,
      event: null,
    });
    await expectConforms(await put({ variants: [] }), '/api/links/{slug}/variants', 'put');
    await expectConforms(await adminGet(`/api/links/${slug}/experiment`), '/api/links/{slug}/experiment', 'get');
    await expectConforms(
      await adminGet(`/api/links/${slug}/experiment?event=A`),
      '/api/links/{slug}/experiment',
      'get',
    );
    await expectConforms(await adminGet('/api/experiments'), '/api/experiments', 'get');
    // PATCH and DELETE /api/links/{slug}: each field the route takes, its refusals and a missing link.
    const change = (body: unknown, at = slug, method = 'PATCH') =>
      exports.default.fetch(
        new Request(`${ORIGIN}/api/links/${at}`, {
          method,
          headers: { ...admin, 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
      );
    const changed = await change({
      expiresAt: '2031-01-01T00:00:00Z',
      rules: [{ when: 'os == "iOS"', action: 'store' }],
      password: 'open sesame 42',
      preview: { title: 'Notes', description: 'Write it down', image: 'https://cdn.example.com/card.png' },
    });
    expect(await expectConforms(changed, '/api/links/{slug}', 'patch')).toMatchObject({
      expiresAt: '2031-01-01T00:00:00.000Z',
      hasPassword: true,
      preview: { title: 'Notes' },
    });
    await expectConforms(
      await change({ expiresAt: null, rules: [], password: null, preview: null }),
      '/api/links/{slug}',
      'patch',
    );
    const refusedChanges = [{}, { expiresAt: '2001-01-01T00:00:00Z' }, { rules: [{ when: 'nope(', action: 'store' }] }];
    for (const body of refusedChanges) {
      const res = await change(body);
      expect(res.status).toBe(400);
      await expectConforms(res, '/api/links/{slug}', 'patch');
    }
    await expectConforms(await change({ expiresAt: null }, 'no-such-link'), '/api/links/{slug}', 'patch');
    await expectConforms(await change(undefined, slug, 'DELETE'), '/api/links/{slug}', 'delete');
    await expectConforms(await change(undefined, slug, 'DELETE'), '/api/links/{slug}', 'delete');
    await expectConforms(await adminGet(`/api/test-installs?app=${APP}`), '/api/test-installs', 'get');
    await expectConforms(await adminGet(`/api/installs?app=${APP}&installId=${installId}`), '/api/installs', 'get');
    await expectConforms(
      await adminGet(`/api/installs?app=${APP}&installId=${newInstallId()}`),
      '/api/installs',
      'get',
    );
  });
});
