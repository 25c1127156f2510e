/**
 * An OpenID Connect provider of a test's own (docs/operators.md#openid-connect): discovery, JWKS and a
 * token endpoint answered by a mock of the worker's `fetch` (every other URL goes to the real one), an
 * RSA key of its own signing the ID tokens. The test plays the person at the provider: `approve` reads
 * the worker's redirect to the authorization endpoint as the provider would, keeps the grant, and
 * answers the callback URL the browser is sent back to. The token endpoint checks what a real one does:
 * the code once, the redirect URI, the client's secret (HTTP Basic) and the PKCE verifier (S256).
 */
import { vi } from 'vitest';
import { toBase64Url } from '../../shared/base64url.ts';
import { accessKey } from '../fixtures/access-key.ts';

export const CLIENT_ID = 'lander-console';
export const CLIENT_SECRET = 'provider-client-secret';

interface Grant {
  challenge: string;
  redirectUri: string;
  claims: Record<string, unknown>;
}

const sha256 = async (text: string) =>
  toBase64Url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))));

/** Whether `header` is HTTP Basic for `id` and `secret`, each form-urlencoded first (RFC 6749 §2.3.1). */
function basicIs(header: string | null, id: string, secret: string): boolean {
  const [scheme, encoded = ''] = (header ?? '').split(' ');
  const [user = '', password = ''] = atob(encoded).split(':');
  const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
  return scheme === 'Basic' && decode(user) === id && decode(password) === secret;
}

/** A provider at its own issuer per call (the worker keeps metadata and keys per issuer). */
export async function oidcProvider() {
  const issuer = `https://idp-${crypto.randomUUID().slice(0, 8)}.example`;
  const key = await accessKey('k1');
  // What signs the ID tokens: the published key, unless a test forges them.
  let signer = key;
  const grants = new Map<string, Grant>();
  const tokenCalls: URLSearchParams[] = [];
  const metadata = {
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    jwks_uri: `${issuer}/jwks`,
    response_types_supported: ['code'],
    subject_types_supported: ['public'],
    id_token_signing_alg_values_supported: ['RS256'],
    code_challenge_methods_supported: ['S256'],
  };
  const realFetch = globalThis.fetch;
  const fetched = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (!request.url.startsWith(`${issuer}/`)) return realFetch(input, init);
    const path = new URL(request.url).pathname;
    if (path === '/.well-known/openid-configuration') return Response.json(metadata);
    if (path === '/jwks') return Response.json({ keys: [{ ...key.jwk, alg: 'RS256', use: 'sig' }] });
    if (path === '/token' && request.method === 'POST') return token(await request.text(), request.headers);
    return new Response('not found', { status: 404 });
  });

  async function token(body: string, headers: Headers): Promise<Response> {
    const form = new URLSearchParams(body);
    tokenCalls.push(form);
    const refuse = (error: string) => Response.json({ error }, { status: 400 });
    if (!basicIs(headers.get('authorization'), CLIENT_ID, CLIENT_SECRET)) {
      return Response.json({ error: 'invalid_client' }, { status: 401 });
    }
    const grant = grants.get(form.get('code') ?? '');
    grants.delete(form.get('code') ?? '');
    if (form.get('grant_type') !== 'authorization_code' || !grant) return refuse('invalid_grant');
    if (form.get('redirect_uri') !== grant.redirectUri) return refuse('invalid_grant');
    if ((await sha256(form.get('code_verifier') ?? '')) !== grant.challenge) return refuse('invalid_grant');
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: issuer, aud: CLIENT_ID, sub: 'user-1234', iat: now, exp: now + 300, ...grant.claims };
    return Response.json({
      access_token: 'opaque',
      token_type: 'Bearer',
      expires_in: 300,
      id_token: await signer.sign(claims),
    });
  }

  /**
   * The person approves the sign-in the worker redirected to (`location`): the grant is kept with the
   * ID token's claims (`claims` laid over the right ones, the request's nonce among them), and the
   * callback URL with the code and state is answered.
   */
  function approve(location: string, claims: Record<string, unknown> = {}): URL {
    const asked = new URL(location);
    if (`${asked.origin}${asked.pathname}` !== metadata.authorization_endpoint)
      throw new Error(`not the provider: ${location}`);
    const query = asked.searchParams;
    const code = crypto.randomUUID();
    const redirectUri = query.get('redirect_uri') ?? '';
    grants.set(code, {
      challenge: query.get('code_challenge') ?? '',
      redirectUri,
      claims: { nonce: query.get('nonce'), email: 'ops@example.com', email_verified: true, ...claims },
    });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    back.searchParams.set('state', query.get('state') ?? '');
    return back;
  }

  /** A JWT signed as the provider signs (or, after `forge`, as a forger does): `claims` and the JWS header. */
  const sign = (claims: Record<string, unknown>, header?: Record<string, unknown>) => signer.sign(claims, header);

  /** From now on, ID tokens are signed with a key of the same id that the JWKS does not hold (forged). */
  async function forge(): Promise<void> {
    signer = await accessKey('k1');
  }

  const bindings = {
    OIDC_ISSUER: issuer,
    OIDC_CLIENT_ID: CLIENT_ID,
    OIDC_CLIENT_SECRET: CLIENT_SECRET,
  };
  return { issuer, metadata, bindings, approve, fetched, tokenCalls, forge, sign };
}
