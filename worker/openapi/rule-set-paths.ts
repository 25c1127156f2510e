/**
 * The rule sets API in the OpenAPI document (docs/smart-links.md#rule-sets): the body and answers are
 * the routes' own schemas (worker/rules/rule-sets.ts).
 */
import { RULE_SET_ID_PATTERN } from '../../shared/link-rules.ts';
import { RuleSetBodySchema, RuleSetSchema, RuleSetsSchema } from '../rules/rule-sets.ts';
import { ADMIN_ERRORS, ADMIN_WRITE_ERRORS, admin, answer, body, type Json, refusal } from './operation-parts.ts';

/** The paths of `/api/rule-sets` and `/api/rule-sets/{id}`. */
export function ruleSetPaths(): Json {
  const id = {
    name: 'id',
    in: 'path',
    required: true,
    description: 'The set’s id, which a campaign token names in its signed `rules` field.',
    schema: { type: 'string', pattern: `^${RULE_SET_ID_PATTERN}$` },
  };
  return {
    '/api/rule-sets': {
      get: {
        ...admin,
        summary: 'The app’s rule sets (`links:read`), by id.',
        responses: { 200: answer('The rule sets.', RuleSetsSchema), ...ADMIN_ERRORS },
      },
    },
    '/api/rule-sets/{id}': {
      get: {
        ...admin,
        summary: 'One rule set (`links:read`).',
        parameters: [id],
        responses: {
          200: answer('The rule set.', RuleSetSchema),
          400: refusal('`id` is not one.'),
          404: refusal('No such rule set.'),
          ...ADMIN_ERRORS,
        },
      },
      put: {
        ...admin,
        summary:
          'Creates or replaces a rule set (`links:write`): its rules are compiled now, and run on `/landing`, `/i/<carrier>` and `/s/<slug>` for every token naming it.',
        parameters: [id],
        requestBody: body(RuleSetBodySchema),
        responses: {
          200: answer('Replaced.', RuleSetSchema),
          201: answer('Created.', RuleSetSchema),
          400: refusal(
            'A field is wrong, or a rule does not compile or leaves the allow list (each named with its place).',
          ),
          ...ADMIN_WRITE_ERRORS,
        },
      },
      delete: {
        ...admin,
        summary: 'Removes a rule set (`links:write`): a token naming it then serves its page.',
        parameters: [id],
        responses: {
          204: answer('Removed.'),
          400: refusal('`id` is not one.'),
          404: refusal('No such rule set.'),
          ...ADMIN_WRITE_ERRORS,
        },
      },
    },
  };
}
