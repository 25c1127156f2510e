/**
 * A Cloudflare Access team of a test's own (docs/operators.md, "Cloudflare Access"): an RSA key the
 * test signs JWTs with, and the team's certs answered by a mock of the worker's `fetch`, so the
 * admin API's Access sign-in is checked for real without Cloudflare.
 */
import { vi } from 'vitest';
import { accessKey } from '../fixtures/access-key.ts';

export { accessKey };

/** The audience tag the test teams' Access application has. */
export const ACCESS_AUD = 'aud-tag-123';

/**
 * A team of its own per call (the worker keeps keys per team), its certs answered by a mock fetch
 * that hands every other URL to the real one; `bindings` sign operators in with it, in production.
 */
export async function accessTeam() {
  const domain = `team-${crypto.randomUUID().slice(0, 8)}.cloudflareaccess.com`;
  const key = await accessKey('k1');
  const realFetch = globalThis.fetch;
  const certs = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url === `https://${domain}/cdn-cgi/access/certs`) return Response.json({ keys: [key.jwk] });
    if (url.includes('cloudflareaccess.com')) throw new Error(`unexpected fetch ${url}`);
    return realFetch(input, init);
  });
  const claims = {
    aud: [ACCESS_AUD],
    iss: `https://${domain}`,
    exp: Math.floor(Date.now() / 1000) + 600,
    sub: 'ops@example.com',
  };
  const bindings = { LANDER_ENV: 'production', ACCESS_AUD, ACCESS_TEAM_DOMAIN: domain };
  return { domain, key, certs, claims, bindings };
}
