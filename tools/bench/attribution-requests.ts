/**
 * The app's and the page's attribution calls as cycled wrk requests, for the soak beside the
 * visits (docs/benchmarks.md): each fixture phone's tap, its install (half with a clipboard
 * carrier) and an app event, from a network of its own. The bodies repeat, so after the first
 * round a tap is a repeated click id and an install a retry: the soak measures memory under the
 * calls' work, not the Durable Objects' growth (the hot-network mode does that).
 */
import { clickBody, installBody, PHONES } from '../../tests/fixtures/fake-app.ts';
import { benchToken } from './attribution.ts';
import type { CycledRequest } from './wrk-scripts.ts';

export function attributionRequests(): CycledRequest[] {
  const token = benchToken();
  return Object.values(PHONES).flatMap((phone, i) => {
    const address = `127.9.${i}.1`;
    const tap = clickBody(phone, { d: token, visitorId: `soak-${i}` });
    const installId = `soak-install-${i}`;
    const carriers = i % 2 ? { clipboard: `https://x/i/${tap.clickId}.${token}` } : undefined;
    const json = (agent: string) => ({
      'Content-Type': 'application/json',
      'User-Agent': agent,
      'CF-Connecting-IP': address,
    });
    return [
      { method: 'POST', path: '/api/a/click', headers: json(phone.web.agent), body: JSON.stringify(tap) },
      {
        method: 'POST',
        path: '/api/a/install',
        headers: json('PebbleNotes/2.4'),
        body: JSON.stringify(installBody(phone, installId, carriers)),
      },
      {
        method: 'POST',
        path: '/api/a/event',
        headers: json('PebbleNotes/2.4'),
        body: JSON.stringify({ app: 'com.pebble.notes', installId, name: 'register', value: 1 }),
      },
    ];
  });
}
