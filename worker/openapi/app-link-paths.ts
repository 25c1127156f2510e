/**
 * `POST /api/a/links` in the OpenAPI document (docs/campaign-links.md#invite-links-from-the-app): the
 * app's invite link for its signed-in user, its body the route's own schema, its answer held by the
 * compiler to the one the route builds.
 */
import * as v from 'valibot';
import type { AppLinkAnswer } from '../attribution/app-links.ts';
import { AppLinkSchema } from '../attribution/contract.ts';
import { answer, body, type Json, refusal } from './operation-parts.ts';

export const AppLinkAnswerSchema = v.strictObject({
  slug: v.string(),
  url: v.pipe(v.string(), v.url()),
  qr: v.pipe(v.string(), v.url()),
  data: v.record(v.string(), v.string()),
}) satisfies v.GenericSchema<AppLinkAnswer>;

/** The path of an app's invite link, with the refusals every app call shares (`appErrors`). */
export function appLinkPaths(appErrors: Json): Json {
  return {
    '/api/a/links': {
      post: {
        tags: ['attribution'],
        summary:
          "An invite link for the user signed in on an install: a short link of this app with a channel and data fields its configuration's `invites` allow, the inviter the install's identify() named. Five a minute and `invites.per_day` a day per install (RateLimit fields).",
        requestBody: body(AppLinkSchema),
        responses: {
          201: answer('The short link made.', AppLinkAnswerSchema),
          ...appErrors,
          400: refusal(
            'A field the route does not take (rules, variants, password, slug, expiresAt…), a channel or data field the app does not allow, or a value too long: `{ "error": "<field>: <reason>" }`.',
          ),
          403: refusal(
            'Invite links are off for this app (`app`), the install is unknown (`installId`: call install() first), or it was not identified as the inviter (`inviter`: call identify() first).',
          ),
          429: {
            ...(appErrors[429] as Json),
            description:
              'Over the install\'s invite links a minute (`"install"`) or a day (`"install-day"`), or the client\'s or network\'s rate limit.',
          },
        },
      },
    },
  };
}
