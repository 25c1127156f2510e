/**
 * What the fraud rules left on an install (docs/fraud.md), read inside workerd: the ledger's flags
 * once the install's D1 row (written after them) is there, and a click moved into the past so an
 * honest, unhurried install can be told from a too-fast one.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { vi } from 'vitest';
import type { AttributionLedger } from '../../worker/attribution/ledger.ts';
import { ledgerFor } from '../../worker/attribution/ledger.ts';
import { installKey } from '../../worker/attribution/resolve-install.ts';
import { DEV_ATTRIBUTION_SALT } from '../../worker/settings.ts';
import { APP_ID } from '../fixtures/fake-app.ts';
import { inBucket } from './attribution-storage.ts';

/** The ledger key (and fraud tables' id) of an install of the fake app. */
export const keyOf = (installId: string): Promise<string> => installKey(DEV_ATTRIBUTION_SALT, APP_ID, installId);

/** The rules flagged on the install, sorted, once its flagging finished; `minFlags` waits for a late flag. */
export async function flagsOf(installId: string, minFlags = 0): Promise<string[]> {
  const key = await keyOf(installId);
  await vi.waitFor(
    async () => {
      const row = await env.FUNNEL_DB.prepare('SELECT id FROM fraud_installs WHERE id = ?1').bind(key).first();
      if (!row) throw new Error('not flagged yet');
      const flags = await ledgerFor(env, 'default', key).flagsOf(key);
      if (flags.length < minFlags) throw new Error('late flag not there yet');
    },
    { timeout: 5000, interval: 20 },
  );
  return (await ledgerFor(env, 'default', key).flagsOf(key)).map((flag) => flag.rule).sort();
}

/** The reasons of the install's flags. */
export async function reasonsOf(installId: string): Promise<string[]> {
  const key = await keyOf(installId);
  return (await ledgerFor(env, 'default', key).flagsOf(key)).map((flag) => flag.reason);
}

/** Moves a recorded click `ms` into the past: in the click index, and in its network's bucket. */
export async function ageClick(clickId: string, address: string, ms: number): Promise<void> {
  await runInDurableObject(ledgerFor(env, 'default', clickId), (_: AttributionLedger, state) => {
    state.storage.sql.exec('UPDATE clicks SET at = at - ? WHERE click_id = ?', ms, clickId);
  });
  await inBucket(address, 'UPDATE clicks SET at = at - ? WHERE click_id = ?', ms, clickId);
}
