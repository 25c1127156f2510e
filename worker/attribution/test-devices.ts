/**
 * Registered test devices (docs/attribution.md, "Test devices"): the installations an operator named
 * in the console or `POST /api/test-devices`. Only their `test: true` calls are answered as a test —
 * never counted, kept for the Test installs panel, with `explain` — so no stranger can read why
 * another person's tap matched or not. D1 `test_devices` keeps each as the keyed hash of
 * `(app, installId)` the test answers name it by: the install id itself is never stored.
 */
import type { Context } from 'hono';
import type { TestDeviceView } from '../../shared/admin-contract.ts';
import type { AppEnv } from '../env.ts';
import type { CommitChange } from '../facts.ts';
import { settingsOf } from '../settings.ts';
import { deviceHash } from './test-answers.ts';

/** The most devices registered at once: a team's phones, not a fleet. */
export const MAX_TEST_DEVICES = 200;

/** A registered test device, as `GET /api/test-devices` lists it. */
export type TestDevice = TestDeviceView;

interface Row {
  id: number;
  app: string;
  device: string;
  label: string;
  created_at: number;
}

const view = (row: Row): TestDevice => ({
  id: row.id,
  app: row.app,
  device: row.device,
  label: row.label,
  createdAt: new Date(row.created_at).toISOString(),
});

/** What registering answered: the device (made now, or as it was), or that there are too many. */
export type Registered = { device: TestDevice; created: boolean } | { full: true };

/** A device as the audit log keeps it (docs/operators.md#audit-log): its view without the row's id. */
const audited = ({ id: _, ...rest }: TestDevice) => rest;

/**
 * Registers `(app, installId)` as a test device, committed by `commit` with its audit entry;
 * registering it again answers the device as it was and changes nothing, so a script may register
 * before every run.
 */
export async function registerTestDevice(
  db: D1Database,
  salt: string,
  input: { app: string; installId: string; label?: string },
  now: number,
  commit: CommitChange,
): Promise<Registered> {
  const device = await deviceHash(salt, input.app, input.installId);
  const label = input.label?.trim() ?? '';
  // One statement: the bound and the insert cannot be split by another registration.
  const insert = db
    .prepare(
      `INSERT INTO test_devices (app, device, label, created_at)
        SELECT ?1, ?2, ?3, ?4 WHERE (SELECT COUNT(*) FROM test_devices) < ?5
        ON CONFLICT (device) DO NOTHING RETURNING *`,
    )
    .bind(input.app, device, label, now, MAX_TEST_DEVICES);
  const after = audited(view({ id: 0, app: input.app, device, label, created_at: now }));
  const [result] = await commit([insert], {
    kind: 'test-device',
    action: 'created',
    target: device,
    before: null,
    after,
  });
  const made = (result?.results as Row[] | undefined)?.[0];
  if (made) return { device: view(made), created: true };
  const known = await db.prepare('SELECT * FROM test_devices WHERE device = ?').bind(device).first<Row>();
  return known ? { device: view(known), created: false } : { full: true };
}

/** The registered test devices, newest first. */
export async function listTestDevices(db: D1Database): Promise<TestDevice[]> {
  const { results } = await db.prepare('SELECT * FROM test_devices ORDER BY id DESC').all<Row>();
  return results.map(view);
}

/** Forgets the test device `id`, committed by `commit` with its audit entry: whether there was one. */
export async function forgetTestDevice(db: D1Database, id: number, commit: CommitChange): Promise<boolean> {
  const row = await db.prepare('SELECT * FROM test_devices WHERE id = ?').bind(id).first<Row>();
  if (!row) return false;
  const remove = db.prepare('DELETE FROM test_devices WHERE id = ?').bind(id);
  const before = audited(view(row));
  const [result] = await commit([remove], {
    kind: 'test-device',
    action: 'deleted',
    target: row.device,
    before,
    after: null,
  });
  return (result?.meta.changes ?? 0) > 0;
}

/** Whether `(app, installId)` is a registered test device. */
export async function isTestDevice(db: D1Database, salt: string, app: string, installId: string): Promise<boolean> {
  const device = await deviceHash(salt, app, installId);
  return (await db.prepare('SELECT 1 FROM test_devices WHERE device = ?').bind(device).first()) !== null;
}

/**
 * The refusal of a `test: true` call from an installation no operator registered (403 naming `test`),
 * or undefined when the call is no test or its device is registered. Nothing of a refused call is
 * kept or counted, so once the device is registered the same call is answered as a test.
 */
export async function unregisteredTest(
  c: Context<AppEnv>,
  body: { test?: boolean; app: string; installId: string },
): Promise<Response | undefined> {
  if (body.test !== true) return undefined;
  const salt = settingsOf(c.env).attributionSalt ?? '';
  const registered = await isTestDevice(c.env.FUNNEL_DB, salt, body.app, body.installId).catch((error: unknown) => {
    console.error('Test devices not read', error instanceof Error ? error.message : String(error));
    return null;
  });
  if (registered === null) return c.json({ error: 'The test devices store is unavailable; try again' }, 503);
  if (registered) return undefined;
  const { app, installId } = body;
  return c.json(
    {
      error: `test: this installation is not a registered test device; register app ${JSON.stringify(app)}, install id ${JSON.stringify(installId)} in the console's Test installs panel or POST /api/test-devices`,
    },
    403,
  );
}
