/** Types of the worker's Hono app: bindings from `wrangler types`, per-request variables. */
import type { Page } from '../client/app/route-handle.ts';
import type { Verdict } from '../shared/device/verdict.ts';
import type { DeviceInfo } from '../shared/device.ts';
import type { Role, Scope } from '../shared/roles.ts';
import type { Language } from '../shared/texts.ts';
import type { Variant } from '../shared/variants.ts';
import type { ApkParents } from './apk/parents.ts';
import type { LoadedConfig } from './config/load-config.ts';
import type { StoredLink } from './facts.ts';

/** Which page a request is for, as the route table says (lib/page-of.ts). */
export interface PageIdentity {
  page: Page;
  /** On a carrier page (`/i/<carrier>`), the carrier as the router decoded it. */
  carrier?: string;
  /** On a short link's page (`/s/<slug>`), the slug as the router decoded it. */
  slug?: string;
}

/** Who signed in to the admin API, as the audit log names them (docs/operators.md#audit-log), and what they may do. */
export interface Operator {
  /** The signed-in person's `email` (else `sub`), `token` for the admin token, `key:<name>` for an API key. */
  actor: string;
  /**
   * `sign-in` (Cloudflare Access or an OpenID Connect session), `oidc-token` (the provider's JWT as a
   * bearer), `token`, or `key:<id>` for an API key.
   */
  via: string;
  /** The caller's role in the request's app (docs/operators.md#roles); null for an API key. */
  role: Role | null;
  /** The scopes the caller holds here: its role's, or the key's. */
  scopes: readonly Scope[];
}

export interface AppVariables {
  /** The app this request is for (apps/request-app.ts): `default` on a one-app deployment. */
  app: string;
  /** What links to the request's app start with on this host (apps/request-app.ts): `/@pebble`, or ''. */
  appBase: string;
  /**
   * The reads a page of `app` waits for, started before the registry was read (apps/request-app.ts
   * `prefetch`): the configuration's and the parents' middleware take them when the app is the same.
   */
  prefetched?: { app: string; config: Promise<LoadedConfig>; parents: Promise<ApkParents> };
  /** The visitor's device, detected once per request. */
  device: DeviceInfo;
  /** What the pages read of the device (shared/device/verdict.ts): one shared object per verdict. */
  verdict: Verdict;
  /** `zh-CN` or `en`, from Accept-Language. */
  language: Language;
  /** The operator's configuration for this request, or the demo one (docs/config.md). */
  config: LoadedConfig;
  /**
   * The parent APKs uploaded for stamped downloads, by package (docs/apk-stamping.md): a read
   * started before the configuration's, awaited by the page, so the two KV reads wait together.
   */
  apkParents: Promise<ApkParents>;
  /** Which page the request is for, once it was asked (lib/page-of.ts `pageOf`). */
  page?: PageIdentity;
  /** On `/s/<slug>` only: the stored short link, or null when it is unknown or expired (campaign/short-link.ts). */
  link?: StoredLink | null;
  /** On `/s/<slug>` of a link with variants: the one this visitor sees (variants/choose-variant.ts). */
  variant?: Variant;
  /** A `user_id` cookie minted for the variant's choice, for the page's response to set (variants/choose-variant.ts). */
  visitorCookie?: string;
  /** On the admin API, once signed in: who the operator is and how they signed in (sign-in/operator-auth.ts). */
  operator?: Operator;
}

export interface AppEnv {
  Bindings: Env;
  Variables: AppVariables;
}
