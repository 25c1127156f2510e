/**
 * `identify(userId)` (docs/fraud.md): remembers, as keyed hashes, that the user used this install and
 * its click's visitor id, then flags `self_referral` on the installs credited to that same user from
 * this device: this install itself, and earlier ones whose click had this visitor id.
 */
import type { IdentifyInput } from '../attribution/contract.ts';
import { ledgerFor } from '../attribution/ledger.ts';
import { installKey, installRecordOf } from '../attribution/resolve-install.ts';
import { clickVisitor } from './flag-install.ts';
import type { Flag } from './rules.ts';
import { rememberUse } from './self-referral.ts';
import { keepFlags } from './store.ts';

const CREDITED =
  "SELECT id FROM fraud_installs WHERE inviter = ?1 AND id != ?2 AND visitor = ?3 AND ?3 != '' LIMIT 100";

/** Keeps the identity and flags what it reveals; answers the keys of the installs it flagged. */
export async function identify(env: Env, salt: string, body: IdentifyInput, now: number): Promise<string[]> {
  const key = await installKey(salt, body.app, body.installId);
  const record = await installRecordOf({ env, salt }, body.app, body.installId);
  const visitor = await clickVisitor(env, record?.answer);
  await rememberUse(env.FUNNEL_DB, salt, body.userId, { install: key, visitor }, now);
  const flagged: string[] = [];
  // A test device's install is never counted, so there is nothing to flag on it.
  if (record && !record.test && record.answer.matched && record.answer.data.inviter === body.userId) flagged.push(key);
  const others = await env.FUNNEL_DB.prepare(CREDITED).bind(body.userId, key, visitor).all<{ id: string }>();
  flagged.push(...others.results.map((row) => row.id));
  for (const id of flagged) {
    const flag: Flag = {
      rule: 'self_referral',
      reason:
        id === key ? 'signed in as the inviter on this install' : "this click's visitor id was used by the inviter",
    };
    await ledgerFor(env, id).flag(id, [flag], now);
    await keepFlags(env.FUNNEL_DB, id, [flag], now);
  }
  return flagged;
}
