/**
 * Registered test devices (docs/attribution.md, "Test devices"): the installations an operator named
 * in the console or `POST /api/test-devices`. Only their `test: true` calls are answered as a test —
 * never counted, kept for the Test installs panel, with `explain` — so no stranger can read why
 * another person's tap matched or not. D1 `test_devices` keeps each as the keyed hash of
 * `(app, installId)` the test answers name it by: the install id itself is never stored.
 */
import type { Context } from 'hono';
import type { TestDeviceView } from '../../shared/admin-contract.ts';
import { appSalt } from '../apps/app-keys.ts';
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
  /** The package name or bundle id (the app of the request is `tenant` in the code, `app` in D1). */
  app_id: string;
  device: string;
  label: string;
  created_at: number;
}

const view = (row: Row): TestDevice => ({
  id: row.id,
  app: row.app_id,
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
  tenant: string,
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
      `INSERT INTO test_devices (app, app_id, device, label, created_at)
        SELECT ?6, ?1, ?2, ?3, ?4 WHERE (SELECT COUNT(*) FROM test_devices WHERE app = ?6) < ?5
        ON CONFLICT (app, device) DO NOTHING RETURNING *`,
    )
    .bind(input.app, device, label, now, MAX_TEST_DEVICES, tenant);
  const after = audited(view({ id: 0, app_id: input.app, device, label, created_at: now }));
  const [result] = await commit([insert], {
    kind: 'test-device',
    action: 'created',
    target: device,
    before: null,
    after,
  });
  const made = (result?.results as Row[] | undefined)?.[0];
  if (made) return { device: view(made), created: true };
  const known = await db
    .prepare('SELECT * FROM test_devices WHERE app = ?1 AND device = ?2')
    .bind(tenant, device)
    .first<Row>();
  return known ? { device: view(known), created: false } : { full: true };
}

/** The registered test devices, newest first. */
export async function listTestDevices(db: D1Database, tenant: string): Promise<TestDevice[]> {
  const { results } = await db
    .prepare('SELECT * FROM test_devices WHERE app = ?1 ORDER BY id DESC')
    .bind(tenant)
    .all<Row>();
  return results.map(view);
}

/** Forgets the test device `id`, committed by `commit` with its audit entry: whether there was one. */
export async function forgetTestDevice(
  db: D1Database,
  tenant: string,
  id: number,
  commit: CommitChange,
): Promise<boolean> {
  const row = await db.prepare('SELECT * FROM test_devices WHERE app = ?1 AND id = ?2').bind(tenant, id).first<Row>();
  if (!row) return false;
  const remove = db.prepare('DELETE FROM test_devices WHERE app = ?1 AND id = ?2').bind(tenant, id);
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
export async function isTestDevice(
  db: D1Database,
  tenant: string,
  salt: string,
  app: string,
  installId: string,
): Promise<boolean> {
  const device = await deviceHash(salt, app, installId);
  const known = db.prepare('SELECT 1 FROM test_devices WHERE app = ?1 AND device = ?2').bind(tenant, device);
  return (await known.first()) !== null;
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
  const salt = appSalt(settingsOf(c.env).attributionSalt ?? '', c.get('app'));
  const registered = await isTestDevice(c.env.FUNNEL_DB, c.get('app'), salt, body.app, body.installId).catch(
    (error: unknown) => {
      console.error('Test devices not read', error instanceof Error ? error.message : String(error));
      return null;
    },
  );
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
