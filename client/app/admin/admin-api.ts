/**
 * The console's API client (docs/operators.md): every room's calls (`funnel/funnel-api.ts`,
 * `links/links-api.ts`…) put together, signed in with the admin token or with Cloudflare Access
 * (client/app/admin/shared/admin-client.ts), one object for the session.
 */
import type { AppsAnswer } from '../../../shared/apps.ts';
import type { Me } from '../../../shared/me.ts';
import { type HttpClient, http } from '../http-client.ts';
import { auditApi } from './audit/audit-api.ts';
import { cohortsApi } from './cohorts/cohorts-api.ts';
import { conversionsApi } from './conversions/conversions-api.ts';
import { fraudApi } from './fraud/fraud-api.ts';
import { funnelApi } from './funnel/funnel-api.ts';
import { installsApi } from './installs/installs-api.ts';
import { linksApi } from './links/links-api.ts';
import { privacyApi } from './privacy/privacy-api.ts';
import { signInHeaders } from './shared/admin-client.ts';
import { storePostbacksApi } from './store-postbacks/store-postbacks-api.ts';
import { teamApi } from './team/team-api.ts';
import { testDevicesApi } from './test-devices/test-devices-api.ts';
import { webhooksApi } from './webhooks/webhooks-api.ts';

/** The admin API, signed in with `token` (or with Cloudflare Access when null). */
export function adminApi(token: string | null, client: HttpClient = http) {
  const headers = signInHeaders(token);
  return {
    /** `/api/apps`: the apps this sign-in may see (docs/routes.md#apps), for the app switcher. */
    apps: () => client<AppsAnswer>('/api/apps', { headers }),
    /** `/api/me`: who is signed in, with which scopes (docs/operators.md#who-is-calling). */
    me: () => client<Me>('/api/me', { headers }),
    /** Ends the OpenID Connect session: `POST` to the path `/api/me` named (`/auth/logout`). */
    signOut: (path: string) => client<void>(path, { method: 'POST' }),
    /** `/api/webhooks` (docs/webhooks.md). */
    webhooks: webhooksApi(client, headers),
    /** `/api/conversions/destinations` (docs/conversions.md). */
    conversions: conversionsApi(client, headers),
    /** `/api/fraud` (docs/fraud.md). */
    fraud: fraudApi(client, headers),
    /** `/api/audit` (docs/operators.md#audit-log). */
    audit: auditApi(client, headers),
    /** `/api/test-devices` (docs/attribution.md, "Test devices"). */
    testDevices: testDevicesApi(client, headers),
    /** `/api/keys` and `/api/members` (docs/operators.md#roles). */
    team: teamApi(client, headers),
    /** `/api/cohorts` (docs/operators.md#cohorts). */
    cohorts: cohortsApi(client, headers),
    /** `/api/privacy/requests` (docs/privacy.md#requests-erasure-and-access). */
    privacy: privacyApi(client, headers),
    ...funnelApi(client, headers),
    ...linksApi(client, headers),
    ...installsApi(client, headers),
    ...storePostbacksApi(client, headers),
  };
}

export type AdminApi = ReturnType<typeof adminApi>;
