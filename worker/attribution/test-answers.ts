/**
 * Test devices' answers (docs/attribution.md, "Test devices"), kept in D1 for the console's Test
 * installs panel and `npm run try-install`: each install or open a test device made, its answer and
 * why, newest first. Bounded: 7 days and 500 rows. The device is a keyed hash of `(app, installId)`,
 * so a developer recognises their phone without the install id being stored.
 */
import type { Context } from 'hono';
import type { Explanation } from '../../shared/install-explanation.ts';
import { DAY_MS } from '../../shared/time-zone.ts';
import type { AppEnv } from '../env.ts';
import type { InstallAnswer } from '../facts.ts';
import { keyedHash } from '../lib/keyed-hash.ts';

/** How long a test answer is kept. */
export const TEST_ANSWER_DAYS = 7;
/** The most test answers kept: the oldest go first. */
export const MAX_TEST_ANSWERS = 500;

/** What a test device's call is kept as. */
export interface TestAnswerInput {
  kind: 'install' | 'open';
  app: string;
  /** `ios`, `android`, `harmony`; '' for an open (the app does not say). */
  platform: string;
  installId: string;
  answer: InstallAnswer;
  explanation: Explanation;
  /** The answer came from memory: a retry of an install already answered. */
  repeat: boolean;
}

/** A kept test answer, as `GET /api/test-installs` lists it. */
export interface TestAnswer extends Omit<TestAnswerInput, 'installId'> {
  id: number;
  /** ISO 8601. */
  at: string;
  /** Keyed hash of `(app, installId)`: the same for every call of one installation. */
  device: string;
}

/** The keyed hash a test device is shown and found by. */
export const deviceHash = (salt: string, app: string, installId: string): Promise<string> =>
  keyedHash(salt, `test-device\n${app}\n${installId}`);

const INSERT =
  'INSERT INTO test_answers (app, at, kind, app_id, platform, device, answer, explanation, repeat) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)';
// The bounds are each app's: one app's test devices never push out another's answers.
const FORGET = `DELETE FROM test_answers WHERE app = ?2 AND (at < ?1 OR id <= (
  SELECT id FROM test_answers WHERE app = ?2 ORDER BY id DESC LIMIT 1 OFFSET ${MAX_TEST_ANSWERS}))`;

/** Keeps `input` at `now`, and forgets what is past the bounds, in one batch. */
export async function keepTestAnswer(
  db: D1Database,
  tenant: string,
  salt: string,
  input: TestAnswerInput,
  now: number,
): Promise<void> {
  const device = await deviceHash(salt, input.app, input.installId);
  await db.batch([
    db
      .prepare(INSERT)
      .bind(
        tenant,
        now,
        input.kind,
        input.app,
        input.platform,
        device,
        JSON.stringify(input.answer),
        JSON.stringify(input.explanation),
        input.repeat ? 1 : 0,
      ),
    db.prepare(FORGET).bind(now - TEST_ANSWER_DAYS * DAY_MS, tenant),
  ]);
}

/** Keeps a test answer after the response; a failure is logged, never the app's problem. */
export function noteTestAnswer(c: Context<AppEnv>, salt: string, input: TestAnswerInput): void {
  c.executionCtx.waitUntil(
    keepTestAnswer(c.env.FUNNEL_DB, c.get('app'), salt, input, Date.now()).catch((error: unknown) =>
      console.error('Test answer not kept', error instanceof Error ? error.message : String(error)),
    ),
  );
}

interface Row {
  id: number;
  at: number;
  kind: 'install' | 'open';
  app_id: string;
  platform: string;
  device: string;
  answer: string;
  explanation: string;
  repeat: number;
}

export interface TestAnswerQuery {
  limit: number;
  /** Only answers after this id (a poller's cursor). */
  after?: number;
  app?: string;
  /** Only this device (its hash). */
  device?: string;
}

/** The kept test answers, newest first. */
export async function listTestAnswers(db: D1Database, tenant: string, query: TestAnswerQuery): Promise<TestAnswer[]> {
  const { results } = await db
    .prepare(
      `SELECT * FROM test_answers WHERE app = ?5 AND id > ?1 AND (?2 IS NULL OR app_id = ?2) AND (?3 IS NULL OR device = ?3)
        ORDER BY id DESC LIMIT ?4`,
    )
    .bind(query.after ?? 0, query.app ?? null, query.device ?? null, query.limit, tenant)
    .all<Row>();
  return results.map((row) => ({
    id: row.id,
    at: new Date(row.at).toISOString(),
    kind: row.kind,
    app: row.app_id,
    platform: row.platform,
    device: row.device,
    answer: JSON.parse(row.answer) as InstallAnswer,
    explanation: JSON.parse(row.explanation) as Explanation,
    repeat: row.repeat === 1,
  }));
}
