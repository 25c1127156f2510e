/**
 * Machine clients with the OpenID Connect provider's JWTs (docs/operators.md#machine-clients):
 * `Authorization: Bearer <JWT>`, an ID token or an access token of `typ: JWT`, issued by the
 * deployment's provider. `jose` checks it: the signature with one of the provider's keys (its
 * `jwks_uri`, kept per isolate by `createRemoteJWKSet`), the issuer, an audience of Lander's
 * (`OIDC_CLIENT_ID`, or `OIDC_API_AUDIENCE`), the expiry and not-before with 30 s of leeway. The
 * identity it answers meets the same member look-up as a signed-in person (operator-auth.ts).
 */
import { createRemoteJWKSet, decodeJwt, decodeProtectedHeader, errors, type JWTPayload, jwtVerify } from 'jose';
import type { OidcSettings } from '../../settings.ts';
import { providerOf } from './provider.ts';

/** Seconds of clock difference tolerated on `exp` and `nbf`. */
const LEEWAY_S = 30;

/** The shape of a compact JWS: three base64url parts (a key `lk_…` or the admin token never has dots). */
const COMPACT = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

/** Whether a bearer credential is a JWT, to be checked here rather than as a token or a key. */
export const isJwt = (credential: string): boolean => COMPACT.test(credential);

/** The provider's key sets, one per `jwks_uri`, for the isolate's life (jose refetches for an unknown key). */
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySetOf(jwksUri: string): ReturnType<typeof createRemoteJWKSet> {
  let keys = keySets.get(jwksUri);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(jwksUri));
    keySets.set(jwksUri, keys);
  }
  return keys;
}

/** The identity a JWT vouches for, or why it was refused (401), or that the provider could not be asked (503). */
export type BearerJwt = { ok: true; identity: string } | { ok: false; status: 401 | 503; reason: string };

const refused = (reason: string): BearerJwt => ({ ok: false, status: 401, reason: `Authorization: ${reason}` });

/** A claim as the refusal quotes it back: short, and plain text. */
const quoted = (value: unknown): string => JSON.stringify(value ?? null).slice(0, 120);

/** Checks `token` against the provider of `oidc`; never throws. */
export async function verifyBearerJwt(token: string, oidc: OidcSettings): Promise<BearerJwt> {
  let header: ReturnType<typeof decodeProtectedHeader>;
  let claims: JWTPayload;
  try {
    header = decodeProtectedHeader(token);
    claims = decodeJwt(token);
  } catch {
    return refused('the bearer token is not a JWT');
  }
  // An ID token names no `typ` or `JWT`; an access token for the API is asked to say `JWT` too.
  if (header.typ !== undefined && header.typ.toUpperCase() !== 'JWT') {
    return refused(`the token's typ is ${quoted(header.typ)}; an ID token or a typ JWT access token is taken`);
  }
  let provider: Awaited<ReturnType<typeof providerOf>>;
  try {
    provider = await providerOf(oidc);
    if (!provider.jwks_uri) throw new Error('its metadata names no jwks_uri');
  } catch (error) {
    console.error('OpenID Connect provider not read', error instanceof Error ? error.message : String(error));
    return { ok: false, status: 503, reason: 'The OpenID Connect provider cannot be reached; try again' };
  }
  // Named before any key is fetched: a token of another issuer is refused for what it is.
  if (claims.iss !== provider.issuer) {
    return refused(`the token's issuer ${quoted(claims.iss)} is not this deployment's provider ${provider.issuer}`);
  }
  const audiences = [...oidc.audiences];
  try {
    const { payload } = await jwtVerify(token, keySetOf(provider.jwks_uri), {
      issuer: provider.issuer,
      audience: audiences,
      clockTolerance: LEEWAY_S,
    });
    const email = payload.email_verified === true && typeof payload.email === 'string' ? payload.email : undefined;
    const identity = email ?? payload.sub;
    if (!identity) return refused('the token names no subject (sub)');
    return { ok: true, identity };
  } catch (error) {
    return refusalOf(error, claims, audiences);
  }
}

/** The refusal for what jose found wrong, naming the claim; a key set that cannot be read is 503. */
function refusalOf(error: unknown, claims: JWTPayload, audiences: string[]): BearerJwt {
  if (error instanceof errors.JWTExpired) return refused('the token expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'aud') {
      return refused(`the token's audience ${quoted(claims.aud)} is not ${audiences.join(' or ')}`);
    }
    return refused(`the token's ${error.claim} claim is wrong: ${error.reason}`);
  }
  if (error instanceof errors.JWSSignatureVerificationFailed || error instanceof errors.JWKSNoMatchingKey) {
    return refused("the token's signature is not by one of the provider's keys");
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return refused(`the token's algorithm is not taken (${error.message})`);
  }
  if (error instanceof errors.JWSInvalid || error instanceof errors.JWTInvalid) return refused('the JWT is malformed');
  console.error('OpenID Connect keys not read', error instanceof Error ? error.message : String(error));
  return { ok: false, status: 503, reason: "The OpenID Connect provider's keys cannot be read; try again" };
}
