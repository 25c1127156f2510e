/** The fraud report's answer (`GET /api/fraud`, docs/fraud.md) as a schema, held to its type. */
import * as v from 'valibot';
import type { FraudReport } from '../../shared/fraud-contract.ts';

const counts = v.record(v.string(), v.number());

export const FraudReportSchema = v.strictObject({
  from: v.pipe(v.string(), v.isoDate()),
  to: v.pipe(v.string(), v.isoDate()),
  excluded: v.array(v.string()),
  groups: v.array(
    v.strictObject({
      channel: v.string(),
      inviter: v.string(),
      installs: v.number(),
      flagged: v.number(),
      byRule: counts,
    }),
  ),
  anomalies: v.array(
    v.strictObject({
      day: v.pipe(v.string(), v.isoDate()),
      channel: v.string(),
      inviter: v.string(),
      rule: v.string(),
      installs: v.number(),
      observed: v.number(),
      threshold: v.number(),
      reason: v.string(),
    }),
  ),
  installs: v.array(
    v.strictObject({
      install: v.string(),
      at: v.pipe(v.string(), v.isoTimestamp()),
      channel: v.string(),
      inviter: v.string(),
      method: v.string(),
      flags: v.array(v.strictObject({ rule: v.string(), reason: v.string() })),
    }),
  ),
}) satisfies v.GenericSchema<FraudReport>;
