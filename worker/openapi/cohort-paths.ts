/**
 * `GET /api/cohorts` in the OpenAPI document (docs/operators.md#cohorts): its query from the route's
 * own schema, its answer held to shared/cohorts.ts' type.
 */
import * as v from 'valibot';
import { COHORT_GROUPINGS, type CohortsAnswer } from '../../shared/cohorts.ts';
import { CohortQuerySchema } from '../funnel/cohort-query.ts';
import { ADMIN_ERRORS, admin, type Json, json, queryParameters, refusal } from './operation-parts.ts';

const Day = v.pipe(v.string(), v.isoDate());
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Days = v.array(v.nullable(Count));

const CohortRowSchema = v.strictObject({
  day: Day,
  key: v.string(),
  installs: Count,
  retained: Days,
  value: v.record(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)), v.array(v.nullable(v.pipe(v.number(), v.integer())))),
});

export const CohortsAnswerSchema = v.strictObject({
  from: Day,
  to: Day,
  by: v.picklist(COHORT_GROUPINGS),
  ages: Count,
  channel: v.optional(v.string()),
  inviter: v.optional(v.string()),
  link: v.optional(v.string()),
  timeZone: v.string(),
  today: Day,
  rows: v.array(CohortRowSchema),
}) satisfies v.GenericSchema<CohortsAnswer>;

/** The cohorts' path. */
export function cohortPaths(): Json {
  return {
    '/api/cohorts': {
      get: {
        ...admin,
        summary:
          'Cohort tables: installs by install day and one grouping, installs retained on each day 0–90 after, cumulative value per currency (CSV with `Accept: text/csv`).',
        parameters: queryParameters(CohortQuerySchema),
        responses: {
          200: {
            description: 'The cohorts, by install day.',
            content: { ...json(CohortsAnswerSchema), 'text/csv': { schema: { type: 'string' } } },
          },
          400: refusal('A parameter is wrong.'),
          ...ADMIN_ERRORS,
        },
      },
    },
  };
}
