/**
 * `identify(userId)` (docs/fraud.md): remembers, as keyed hashes, that the user used this install and
 * its click's visitor id, then flags `self_referral` on the installs credited to that same user from
 * this device: this install itself, and earlier ones whose click had this visitor id.
 */
import type { RaisedFlags, UserIdentified } from '../facts.ts';
import { rememberUse } from './self-referral.ts';
import { keepFlags } from './store.ts';

const CREDITED =
  "SELECT id FROM fraud_installs WHERE app = ?4 AND inviter = ?1 AND id != ?2 AND visitor = ?3 AND ?3 != '' LIMIT 100";

/** Keeps the identity and the flags it reveals in D1; answers them, per install, for the ledger. */
export async function flagIdentified(
  env: Env,
  app: string,
  salt: string,
  fact: UserIdentified,
): Promise<RaisedFlags[]> {
  const { key, install, clickVisitor: visitor, userId, at } = fact;
  await rememberUse(env.FUNNEL_DB, app, salt, userId, { install: key, visitor }, at);
  const flagged: string[] = [];
  // A test device's install is never counted, so there is nothing to flag on it.
  if (install && !install.test && install.answer.matched && install.answer.data.inviter === userId) flagged.push(key);
  const others = await env.FUNNEL_DB.prepare(CREDITED).bind(userId, key, visitor, app).all<{ id: string }>();
  flagged.push(...others.results.map((row) => row.id));
  const raised: RaisedFlags[] = [];
  for (const id of flagged) {
    const reason =
      id === key ? 'signed in as the inviter on this install' : "this click's visitor id was used by the inviter";
    const flags = [{ rule: 'self_referral' as const, reason }];
    await keepFlags(env.FUNNEL_DB, app, id, flags, at);
    raised.push({ install: id, flags });
  }
  return raised;
}
