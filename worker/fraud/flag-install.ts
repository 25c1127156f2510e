/**
 * Flagging an install (docs/fraud.md), after the response: the time rules, self-referral and the
 * busy network, kept in D1 for the funnel's `flagged` counts, the anomalies and the console, and
 * answered for the ledger to keep beside the answer. The app's answer is never changed.
 */
import type { Flag, InstallDecided } from '../facts.ts';
import { busyNetwork } from './busy-network.ts';
import { timeFlags } from './rules.ts';
import { selfReferral } from './self-referral.ts';
import { keepInstall } from './store.ts';

/** The flags of `install` in rule order, as the ledger lists them. */
const byRule = (flags: Flag[]): Flag[] => flags.sort((a, b) => (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0));

/**
 * Decides the flags of a first, counted install and keeps its row and its flags in D1. `salt` is
 * `ATTRIBUTION_SALT`; `tooFastSeconds` the configuration's `fraud.too_fast_seconds`.
 */
export async function flagInstall(
  env: Env,
  app: string,
  salt: string,
  tooFastSeconds: number,
  install: InstallDecided,
): Promise<Flag[]> {
  const { key, answer } = install;
  const clickedAt = answer.matched && answer.clickedAt ? Date.parse(answer.clickedAt) : null;
  const meta = answer.matched && answer.method === 'meta';
  const flags = timeFlags({
    clickedAt,
    meta,
    launchedAt: install.launchedAt,
    referrer: install.referrer,
    tooFastSeconds,
  });
  const inviter = answer.matched ? (answer.data.inviter ?? '') : '';
  const [self, busy] = await Promise.all([
    selfReferral(env.FUNNEL_DB, app, salt, inviter, { install: key, visitor: install.clickVisitor }),
    busyNetwork(env, salt, install.network),
  ]);
  if (self) flags.push(self);
  if (busy) flags.push(busy);
  const raised = byRule(flags);
  await keepInstall(
    env.FUNNEL_DB,
    app,
    {
      id: key,
      at: install.launchedAt,
      dims: install.dims,
      method: answer.matched ? answer.method : `unmatched:${answer.reason}`,
      network: install.networkBucket,
      visitor: install.clickVisitor,
    },
    raised,
  );
  return raised;
}
