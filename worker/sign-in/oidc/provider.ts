/**
 * The deployment's OpenID Connect provider as `oauth4webapi` asks for it (docs/operators.md#openid-connect):
 * its metadata, discovered at `<issuer>/.well-known/openid-configuration` and kept ten minutes per
 * isolate (the library keeps its keys, `jwks_uri`, five minutes per metadata object), the client, and
 * how the client authenticates at the token endpoint. A development issuer on a loopback host is asked
 * over http; production only ever asks https.
 */
import * as oauth from 'oauth4webapi';
import type { OidcSettings } from '../../settings.ts';

/** How long an isolate keeps the provider's metadata. */
const METADATA_MS = 10 * 60_000;

interface Kept {
  metadata: Promise<oauth.AuthorizationServer>;
  at: number;
}

const discovered = new Map<string, Kept>();

/** The options every request to the provider takes: http only for a development loopback issuer. */
export function requestOptions(oidc: OidcSettings): { [oauth.allowInsecureRequests]?: boolean } {
  return oidc.loopback ? { [oauth.allowInsecureRequests]: true } : {};
}

async function discover(oidc: OidcSettings): Promise<oauth.AuthorizationServer> {
  const response = await oauth.discoveryRequest(oidc.issuer, requestOptions(oidc));
  return oauth.processDiscoveryResponse(oidc.issuer, response);
}

/** The provider's metadata: discovered once per ten minutes per isolate; a failed discovery is not kept. */
export function providerOf(oidc: OidcSettings, now = Date.now()): Promise<oauth.AuthorizationServer> {
  const key = oidc.issuer.href;
  const kept = discovered.get(key);
  if (kept && now - kept.at < METADATA_MS) return kept.metadata;
  const metadata = discover(oidc);
  discovered.set(key, { metadata, at: now });
  metadata.catch(() => {
    if (discovered.get(key)?.metadata === metadata) discovered.delete(key);
  });
  return metadata;
}

/** Lander as the provider's client: its id is the ID tokens' audience. */
export function clientOf(oidc: OidcSettings): oauth.Client {
  return { client_id: oidc.clientId };
}

/**
 * How the client proves itself at the token endpoint: none for a public client (PKCE alone), else
 * its secret in the way the provider says it takes (HTTP Basic by default, as OAuth 2.0 asks).
 */
export function clientAuthOf(oidc: OidcSettings, provider: oauth.AuthorizationServer): oauth.ClientAuth {
  if (!oidc.clientSecret) return oauth.None();
  const methods = provider.token_endpoint_auth_methods_supported;
  const postOnly = methods?.includes('client_secret_post') && !methods.includes('client_secret_basic');
  return postOnly ? oauth.ClientSecretPost(oidc.clientSecret) : oauth.ClientSecretBasic(oidc.clientSecret);
}
