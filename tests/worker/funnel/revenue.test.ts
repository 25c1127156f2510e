/**
 * Revenue (docs/operators.md#revenue) at the edges: what `POST /api/a/event` refuses of a value with a
 * currency (each a 400 naming the field), a decimal value counted in whole minor units, and
 * `/api/stats` reporting revenue per currency and in the operator's reporting currency at the
 * operator's rates, leaving a currency without a rate apart.
 */
import { exports } from 'cloudflare:workers';
import { afterAll, describe, expect, it } from 'vitest';
import type { StatsResult } from '../../../worker/funnel/stats-query.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { demoWith } from '../../fixtures/config.ts';
import { installBody, PHONES } from '../../fixtures/fake-app.ts';
import { APP_HEADERS, appCall, campaign, carrierLink, click, network, newInstallId, send } from '../app-calls.ts';
import { expectConforms } from '../conforms.ts';
import { freshChannel } from '../funnel-fixtures.ts';
import { clearConfig, ORIGIN, storeConfig } from '../helpers.ts';

const APP = 'com.pebble.notes';
const installId = 'install-revenue-refusals';

async function refusal(body: Record<string, unknown>): Promise<string> {
  const res = await send('/api/a/event', { app: APP, installId, ...body }, APP_HEADERS);
  expect(res.status).toBe(400);
  return ((await res.json()) as { error: string }).error;
}

async function stats(channel: string): Promise<StatsResult> {
  const res = await exports.default.fetch(
    new Request(`${ORIGIN}/api/stats?by=channel&channel=${channel}`, {
      headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}` },
    }),
  );
  expect(res.status).toBe(200);
  return res.json();
}

describe('revenue', () => {
  afterAll(clearConfig);

  it('refuses an unknown or lower-case code, a currency without a value, more decimals than the currency has, and an amount past the bound, naming the field', async () => {
    expect(await refusal({ name: 'purchase', value: 1, currency: 'XYZ' })).toMatch(/^currency: must be an ISO 4217/);
    expect(await refusal({ name: 'purchase', value: 1, currency: 'usd' })).toMatch(/^currency: must be an ISO 4217/);
    expect(await refusal({ name: 'purchase', currency: 'USD' })).toBe('value: is needed with currency');
    expect(await refusal({ name: 'purchase', value: 9.999, currency: 'USD' })).toBe(
      'value: must have at most 2 decimals in USD',
    );
    expect(await refusal({ name: 'purchase', value: 1.5, currency: 'JPY' })).toBe(
      'value: must have at most 0 decimals in JPY',
    );
    expect(await refusal({ name: 'purchase', value: 1e11, currency: 'USD' })).toBe(
      "value: must be within ±1e12 of USD's minor unit",
    );
    expect(
      await refusal({
        events: [
          { id: 'rev-ok-000001', name: 'purchase', value: 9.99, currency: 'USD' },
          { id: 'rev-bad-00002', name: 'purchase', value: 0.0001, currency: 'KWD' },
        ],
      }),
    ).toBe('events.1.value: must have at most 3 decimals in KWD');
  });

  it('counts 9.99 USD as 999 cents and reports each currency, and their sum in the reporting currency at the operator rates', async () => {
    await storeConfig({ ...demoWith({}), revenue: { currency: 'USD', rates: { EUR: 1.08 } } });
    const channel = freshChannel();
    const at = network(23);
    const d = campaign({ channel });
    const { clickId } = await click(PHONES.iPhone15, at(1), { d });
    const id = newInstallId();
    await appCall(
      '/api/a/install',
      installBody(PHONES.iPhone15, id, { clipboard: carrierLink(`${clickId}.${d}`) }),
      at(1),
    );
    await appCall('/api/a/event', {
      app: APP,
      installId: id,
      events: [
        { id: 'rev-usd-00001', name: 'purchase', value: 9.99, currency: 'USD' },
        { id: 'rev-eur-00001', name: 'purchase', value: 10, currency: 'EUR' },
        { id: 'rev-eur-00002', name: 'refund', value: -2.5, currency: 'EUR' },
        { id: 'rev-jpy-00001', name: 'purchase', value: 500, currency: 'JPY' },
      ],
    });
    await expect
      .poll(async () => (await stats(channel)).rows[0]?.revenue?.JPY?.events ?? 0, { timeout: 20_000 })
      .toBe(1);
    const [row] = (await stats(channel)).rows;
    expect(row?.revenue).toEqual({
      USD: { events: 1, amount: 999, refunds: 0, exponent: 2 },
      EUR: { events: 2, amount: 750, refunds: 250, exponent: 2 },
      JPY: { events: 1, amount: 500, refunds: 0, exponent: 0 },
    });
    // 999 + 7.50 EUR × 1.08 = 8.10 USD; JPY has no rate and is left apart, never guessed.
    expect(row?.reported).toEqual({ currency: 'USD', amount: 1809, exponent: 2, unconverted: ['JPY'] });
    // A value with a currency is revenue, not one of the values summed by name.
    expect(row?.values).toEqual({ purchase: 0, refund: 0 });
    // The answer, revenue and reporting currency included, is the OpenAPI document's (docs/api.md).
    const answer = await exports.default.fetch(
      new Request(`${ORIGIN}/api/stats?by=channel&channel=${channel}&compare=previous`, {
        headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}` },
      }),
    );
    expect((await expectConforms(answer, '/api/stats', 'get')) as StatsResult).toMatchObject({
      rows: [{ reported: { amount: 1809 } }],
      previous: { totals: { revenue: {}, reported: { amount: 0, unconverted: [] } } },
    });
  });
});
