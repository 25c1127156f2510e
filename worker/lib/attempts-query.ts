/**
 * The query of an admin route that lists a delivery log's newest attempts (a webhook endpoint's, a
 * conversion destination's): `limit`, 1 to 200 (50 when absent).
 */
import * as v from 'valibot';

/** `GET /:id/attempts`'s query: how many of the newest attempts to answer. */
export const AttemptsQuerySchema = v.object({
  limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, 'must be a whole number from 1 to 200'),
      v.transform(Number),
      v.minValue(1, 'must be a whole number from 1 to 200'),
      v.maxValue(200, 'must be a whole number from 1 to 200'),
    ),
  ),
});
