/**
 * The team's admin API in the OpenAPI document (`/api/keys`, `/api/members`, `/api/me`,
 * docs/operators.md#api-keys, docs/api.md): bodies and answers the routes' own schemas (shared/team.ts, shared/me.ts).
 */
import { AppsAnswerSchema } from '../../shared/apps.ts';
import { MeSchema } from '../../shared/me.ts';
import {
  KeyRequestSchema,
  KeysSchema,
  MemberRequestSchema,
  MembersSchema,
  MemberViewSchema,
  NewKeySchema,
} from '../../shared/team.ts';
import { ADMIN_ERRORS, ADMIN_WRITE_ERRORS, admin, answer, body, type Json, refusal } from './operation-parts.ts';

/** The paths of `/api/keys`, `/api/members`, `/api/me` and `/api/apps`. */
export function teamPaths(): Json {
  const keyId = {
    name: 'id',
    in: 'path',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,40}$' },
  };
  const subject = {
    name: 'subject',
    in: 'path',
    required: true,
    description: 'An email or a provider’s subject, kept lower-cased.',
    schema: { type: 'string', minLength: 1, maxLength: 200 },
  };
  const above = refusal('A scope the caller lacks (`keys:write`, `members:write`, or one of the key’s or role’s).');
  const lastOwner = refusal('The app’s last owner cannot be demoted or removed.');
  return {
    '/api/apps': {
      get: {
        ...admin,
        summary:
          'The apps the caller may see (every app for the admin token, an API key’s own, a person’s where a member), each with its base on the shared host and where its console opens from this host; the app asked for (`stats:read`).',
        responses: { 200: answer('The apps.', AppsAnswerSchema), ...ADMIN_ERRORS },
      },
    },
    '/api/me': {
      get: {
        ...admin,
        summary:
          'Who is calling, in this app: as the audit log names it, how it signed in, its role or API key, its scopes, and where to end an OpenID Connect session (any caller).',
        responses: { 200: answer('The caller.', MeSchema), ...ADMIN_ERRORS },
      },
    },
    '/api/keys': {
      get: {
        ...admin,
        summary: 'The app’s API keys, newest first, without secrets or hashes (`keys:read`).',
        responses: { 200: answer('The keys.', KeysSchema), ...ADMIN_ERRORS },
      },
      post: {
        ...admin,
        summary: 'Makes an API key with scopes the caller holds; the key is answered this once (`keys:write`).',
        requestBody: body(KeyRequestSchema),
        responses: {
          201: answer('The key, with `key` shown once.', NewKeySchema),
          400: refusal('A field is wrong, or `expiresAt` is past.'),
          ...ADMIN_WRITE_ERRORS,
          403: above,
        },
      },
    },
    '/api/keys/{id}': {
      delete: {
        ...admin,
        summary: 'Revokes an API key: it answers 401 from now on (`keys:write`).',
        parameters: [keyId],
        responses: {
          204: answer('Revoked.'),
          404: refusal('No such key in this app.'),
          409: refusal('Already revoked.'),
          ...ADMIN_WRITE_ERRORS,
        },
      },
    },
    '/api/members': {
      get: {
        ...admin,
        summary: 'The app’s members and their roles, owners first (`members:read`).',
        responses: { 200: answer('The members.', MembersSchema), ...ADMIN_ERRORS },
      },
    },
    '/api/members/{subject}': {
      put: {
        ...admin,
        summary: 'Adds a member or changes its role; needs `members:write` and every scope of the roles involved.',
        parameters: [subject],
        requestBody: body(MemberRequestSchema),
        responses: {
          200: answer('The member, changed or as it was.', MemberViewSchema),
          201: answer('The member, added.', MemberViewSchema),
          400: refusal('The role or subject is wrong.'),
          409: lastOwner,
          ...ADMIN_WRITE_ERRORS,
          403: above,
        },
      },
      delete: {
        ...admin,
        summary: 'Removes a member; needs `members:write` and every scope of its role.',
        parameters: [subject],
        responses: {
          204: answer('Removed.'),
          404: refusal('No such member.'),
          409: lastOwner,
          ...ADMIN_WRITE_ERRORS,
          403: above,
        },
      },
    },
  };
}
