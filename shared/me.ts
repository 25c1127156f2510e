/**
 * `GET /api/me` (docs/operators.md#who-is-calling): who the caller is in the request's app and what
 * it may do there. The console reads it to leave out the panels the caller's scopes cannot read; the
 * OpenAPI document is generated from this schema.
 */
import * as v from 'valibot';
import { ROLES, SCOPES } from './roles.ts';

export const MeSchema = v.strictObject({
  /** As the audit log names the caller: an email or subject, `token`, or `key:<name>`. */
  actor: v.string(),
  /** How it signed in: `sign-in`, `token`, `oidc-token` or `key:<id>`. */
  via: v.string(),
  /** The app the call was made for. */
  app: v.string(),
  /** Its role in the app; null for an API key. */
  role: v.nullable(v.picklist(ROLES)),
  /** The API key it called with, or null. */
  key: v.nullable(v.strictObject({ id: v.string(), name: v.string() })),
  /** The scopes it holds in the app (shared/roles.ts). */
  scopes: v.array(v.picklist(SCOPES)),
  /** Where to POST to end the caller's OpenID Connect session (`/auth/logout`); null for any other caller. */
  signOut: v.nullable(v.string()),
});
export type Me = v.InferOutput<typeof MeSchema>;
