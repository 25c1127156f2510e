/**
 * The worker reaches its Durable Objects in the deployment's jurisdiction (docs/privacy.md#where-data-lives):
 * with `JURISDICTION` set, every stub of the attribution objects and the operators' rate windows comes
 * from `namespace.jurisdiction(<it>)`; without it, from the namespace itself. workerd does not
 * implement jurisdictions (measured below: it throws), so the namespaces are wrapped to record the
 * jurisdiction asked for and answer with the real, local namespace: the selection is what is tested,
 * through the worker's own fetch; Cloudflare keeps the promise of where.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it, vi } from 'vitest';
import { bucketFor, ledgerFor } from '../../../worker/attribution/ledger.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { clickBody, newClickId, PHONES } from '../../fixtures/fake-app.ts';
import { fetchWorker, ORIGIN } from '../helpers.ts';

/** `namespace`, recording each jurisdiction asked of it into `asked` and answering with itself. */
function recording<T extends Rpc.DurableObjectBranded | undefined>(
  namespace: DurableObjectNamespace<T>,
  asked: string[],
): DurableObjectNamespace<T> {
  return new Proxy(namespace, {
    get(target, property) {
      if (property === 'jurisdiction') {
        return (jurisdiction: string) => {
          asked.push(jurisdiction);
          return target;
        };
      }
      const member = Reflect.get(target, property);
      return typeof member === 'function' ? member.bind(target) : member;
    },
  });
}

describe('Durable Objects in a jurisdiction', () => {
  it('workerd, locally, does not implement jurisdictions: asking for one throws', () => {
    expect(() => env.ATTRIBUTION_LEDGER.jurisdiction('eu').idFromName('x')).toThrow(
      'Jurisdiction restrictions are not implemented in workerd.',
    );
  });

  it.each(['eu', 'fedramp'])(
    'with JURISDICTION = %s, the ledger and the buckets are reached through it',
    async (where) => {
      const asked: string[] = [];
      const bindings = {
        ...env,
        JURISDICTION: where,
        ATTRIBUTION_LEDGER: recording(env.ATTRIBUTION_LEDGER, asked),
        CLICK_BUCKETS: recording(env.CLICK_BUCKETS, asked),
      };
      await ledgerFor(bindings, 'default', 'jx').indexClick('jx-1', { bucket: 'b', at: Date.now() });
      bucketFor(bindings, 'default', 'b');
      expect(asked).toEqual([where, where]);
    },
  );

  it('without JURISDICTION, no jurisdiction is asked for', () => {
    const asked: string[] = [];
    const bindings = { ...env, ATTRIBUTION_LEDGER: recording(env.ATTRIBUTION_LEDGER, asked) };
    ledgerFor(bindings, 'default', 'jy');
    expect(asked).toEqual([]);
  });

  it('through the worker: a tap and an admin call reach every object in the jurisdiction', async () => {
    const asked: Record<string, string[]> = { CLICK_BUCKETS: [], ATTRIBUTION_LEDGER: [], OPERATOR_LIMITS: [] };
    const bindings = {
      JURISDICTION: 'eu',
      CLICK_BUCKETS: recording(env.CLICK_BUCKETS, asked.CLICK_BUCKETS ?? []),
      ATTRIBUTION_LEDGER: recording(env.ATTRIBUTION_LEDGER, asked.ATTRIBUTION_LEDGER ?? []),
      OPERATOR_LIMITS: recording(env.OPERATOR_LIMITS, asked.OPERATOR_LIMITS ?? []),
    };
    const tap = await fetchWorker(
      `${ORIGIN}/api/a/click`,
      {
        method: 'POST',
        body: JSON.stringify(clickBody(PHONES.iPhone15, { clickId: newClickId() })),
        headers: {
          'content-type': 'application/json',
          'cf-connecting-ip': '192.0.2.91',
          'user-agent': PHONES.iPhone15.web.agent,
        },
      },
      bindings,
    );
    expect(tap.status).toBe(204);
    const admin = await fetchWorker(
      `${ORIGIN}/api/losses`,
      { headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}` } },
      bindings,
    );
    expect(admin.status).toBe(200);
    expect(asked.CLICK_BUCKETS).toContain('eu');
    expect(asked.ATTRIBUTION_LEDGER).toContain('eu');
    expect(asked.OPERATOR_LIMITS).toContain('eu');
    expect(
      Object.values(asked)
        .flat()
        .every((where) => where === 'eu'),
    ).toBe(true);
  });

  it('an unknown JURISDICTION is logged and none is asked for', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const asked: string[] = [];
    ledgerFor(
      { ...env, JURISDICTION: 'mars', ATTRIBUTION_LEDGER: recording(env.ATTRIBUTION_LEDGER, asked) },
      'default',
      'jz',
    );
    expect(asked).toEqual([]);
    expect(String(error.mock.calls[0]?.[0])).toContain('JURISDICTION: "mars" is not one of eu, fedramp');
    error.mockRestore();
  });
});
