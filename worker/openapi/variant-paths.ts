/**
 * A link's variants and experiment in the OpenAPI document
 * (docs/smart-links.md#variants-and-the-sequential-test): the body and answers are the routes' own
 * schemas (shared/variants.ts).
 */
import { SLUG_PATTERN } from '../../shared/admin-contract.ts';
import { ExperimentSchema, ExperimentsSchema, ExperimentViewSchema } from '../../shared/variants.ts';
import { ADMIN_ERRORS, ADMIN_WRITE_ERRORS, admin, answer, body, type Json, refusal } from './operation-parts.ts';

/** The paths of `/api/links/{slug}/variants`, `/api/links/{slug}/experiment` and `/api/experiments`. */
export function variantPaths(): Json {
  const slug = { name: 'slug', in: 'path', required: true, schema: { type: 'string', pattern: SLUG_PATTERN } };
  return {
    '/api/links/{slug}/variants': {
      get: {
        ...admin,
        summary: 'The link’s variants as kept, with the outcome they are judged on.',
        parameters: [slug],
        responses: {
          200: answer('The variants.', ExperimentSchema),
          404: refusal('No such link, or it has no variants.'),
          ...ADMIN_ERRORS,
        },
      },
      put: {
        ...admin,
        summary: 'Gives a short link its variants (2 to 8, the first the control) and the outcome they are judged on.',
        parameters: [slug],
        requestBody: body(ExperimentSchema),
        responses: {
          200: answer('The variants as kept.', ExperimentSchema),
          400: refusal('A field is wrong (named, with why).'),
          404: refusal('No such link.'),
          ...ADMIN_WRITE_ERRORS,
        },
      },
      delete: {
        ...admin,
        summary: 'Removes the link’s variants: its page is the plain campaign page again.',
        parameters: [slug],
        responses: {
          204: answer('Removed (or there were none).'),
          404: refusal('No such link.'),
          ...ADMIN_WRITE_ERRORS,
        },
      },
    },
    '/api/links/{slug}/experiment': {
      get: {
        ...admin,
        summary:
          "Each variant's visitors, installs and chosen app event, and its verdict against the control by the always-valid sequential test (mSPRT, α = 0.05).",
        parameters: [
          slug,
          {
            name: 'event',
            in: 'query',
            required: false,
            description: 'Judge on this app event instead of the link’s chosen outcome.',
            schema: { type: 'string', pattern: '^[a-z0-9][a-z0-9_.-]{0,39}$' },
          },
        ],
        responses: {
          200: answer('The experiment.', ExperimentViewSchema),
          400: refusal('`event` is not an event name.'),
          404: refusal('No such link, or it has no variants.'),
          ...ADMIN_ERRORS,
        },
      },
    },
    '/api/experiments': {
      get: {
        ...admin,
        summary: 'The experiments of the newest 50 links with variants.',
        responses: { 200: answer('The experiments.', ExperimentsSchema), ...ADMIN_ERRORS },
      },
    },
  };
}
