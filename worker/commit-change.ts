/**
 * The one place an operator's change is committed (docs/architecture.md#facts-and-listeners): a
 * signed-in route's wing hands its D1 statements and the change's record to `committerOf(c)`, which
 * commits them with the audit log's entry (worker/audit/append.ts) in one batch. A change is not
 * announced after the response as other facts are: the log must hold exactly the changes kept.
 */
import type { Context } from 'hono';
import { appendEntry, commitWithEntry } from './audit/append.ts';
import type { AppEnv } from './env.ts';
import type { ChangeRecord, CommitChange } from './facts.ts';

/**
 * How a signed-in operator's route commits a change (facts.ts `CommitChange`): with its audit entry,
 * naming who signed in (sign-in/operator-auth.ts) and how.
 */
export function committerOf(c: Context<AppEnv>): CommitChange {
  const { actor, via } = c.get('operator') ?? { actor: 'unknown', via: 'unknown' };
  return (statements, record) =>
    commitWithEntry(c.env.FUNNEL_DB, { ...record, actor, via, app: c.get('app'), at: Date.now() }, statements);
}

/**
 * How a route records a change it kept outside D1 (the configuration, in KV): the entry alone, with
 * who made it, appended once the other store accepted the change. Throws when D1 does.
 */
export function recorderOf(c: Context<AppEnv>): (record: ChangeRecord) => Promise<void> {
  const { actor, via } = c.get('operator') ?? { actor: 'unknown', via: 'unknown' };
  return async (record) => {
    await appendEntry(c.env.FUNNEL_DB, { ...record, actor, via, app: c.get('app'), at: Date.now() });
  };
}
