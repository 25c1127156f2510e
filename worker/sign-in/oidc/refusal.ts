/**
 * Why a sign-in was refused, in words that name the field and the reason (docs/operators.md#openid-connect):
 * `oauth4webapi`'s errors read as the ID token's claim that failed, the provider's own error, or the
 * provider out of reach. Every refusal is a 4xx but the last, a 502: the provider, not the request, failed.
 */
import * as oauth from 'oauth4webapi';

export interface Refusal {
  status: 400 | 401 | 403 | 502;
  reason: string;
}

interface ClaimCause {
  claim?: string;
  expected?: unknown;
  claims?: Record<string, unknown>;
}

const CLAIMS: Record<string, (cause: ClaimCause) => string> = {
  iss: ({ expected, claims }) => `iss: the ID token's issuer is ${JSON.stringify(claims?.iss)}, not ${expected}`,
  aud: ({ claims }) => `aud: the ID token is for ${JSON.stringify(claims?.aud)}, not this client`,
  azp: ({ claims }) => `azp: the ID token was issued to ${JSON.stringify(claims?.azp)}, not this client`,
  nonce: () => "nonce: the ID token's nonce is not the one this sign-in sent",
  exp: () => 'exp: the ID token has expired',
  iat: () => 'iat: the ID token was issued too long ago',
  nbf: () => 'nbf: the ID token is not valid yet',
  auth_time: () => 'auth_time: the sign-in at the provider is too old',
};

function claimRefusal(error: oauth.OperationProcessingError): Refusal | undefined {
  const cause = (error.cause ?? {}) as ClaimCause;
  const said = cause.claim === undefined ? undefined : CLAIMS[cause.claim];
  return said ? { status: 401, reason: said(cause) } : undefined;
}

/** What refusing `error`, thrown while finishing a sign-in with `oauth4webapi`, says and answers. */
export function refusalOf(error: unknown): Refusal {
  if (error instanceof oauth.AuthorizationResponseError) {
    const detail = error.error_description ? ` (${error.error_description})` : '';
    const status = error.error === 'access_denied' ? 403 : 400;
    return { status, reason: `error: the provider refused the sign-in: ${error.error}${detail}` };
  }
  if (error instanceof oauth.ResponseBodyError) {
    const detail = error.error_description ? ` (${error.error_description})` : '';
    return { status: 400, reason: `code: the provider's token endpoint refused it: ${error.error}${detail}` };
  }
  if (error instanceof oauth.OperationProcessingError) {
    if (error.code === oauth.JWT_CLAIM_COMPARISON || error.code === oauth.JWT_TIMESTAMP_CHECK) {
      const refusal = claimRefusal(error);
      if (refusal) return refusal;
    }
    if (error.code === oauth.KEY_SELECTION) {
      return { status: 401, reason: "signature: no key of the provider's JWKS matches the ID token's" };
    }
    if (error.message === 'JWT signature verification failed') {
      return { status: 401, reason: "signature: the ID token is not signed with the provider's key" };
    }
    return { status: 401, reason: `the provider's answer was refused: ${error.message}` };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { status: 502, reason: `the provider could not be reached or answered nothing usable: ${message}` };
}
