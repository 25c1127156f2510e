/**
 * The busy-network rule (docs/fraud.md): a first install from a network that has sent more first
 * installs this minute than a normal network does (`NETWORK_INSTALL_WATCH`, wrangler.toml) is
 * flagged `busy_network`, never refused. A crowd behind one address (a stadium, a campus) gets its
 * answers and the operator sees the flag; an install farm behind one address is marked the same way.
 */

import type { Flag, Network } from '../facts.ts';
import { keyedHash } from '../lib/keyed-hash.ts';
import { withinBudget } from '../lib/within-budget.ts';
import { LIMITER_BUDGET_MS } from '../reliability/budget.ts';

/** First installs per network a minute past which a network is busy (the binding's `simple.limit`). */
export const BUSY_NETWORK_INSTALLS = 300;

/**
 * The `busy_network` flag of a first install from `network`, or null: counted with the binding, so
 * a binding that fails or is slow flags nothing (a flag is the operator's, never worth an error).
 */
export async function busyNetwork(env: Env, salt: string, network: Network | null): Promise<Flag | null> {
  const watch: RateLimit | undefined = env.NETWORK_INSTALL_WATCH;
  if (!watch || !network) return null;
  const key = await keyedHash(salt, `installs\n${network.prefix}`);
  const { success } = await withinBudget(watch.limit({ key }), LIMITER_BUDGET_MS, () => ({ success: true })).catch(
    () => ({ success: true }),
  );
  if (success) return null;
  return {
    rule: 'busy_network',
    reason: `more than ${BUSY_NETWORK_INSTALLS} first installs a minute from its network`,
  };
}
