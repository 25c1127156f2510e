/**
 * Rate limits of the admin API (docs/operators.md#rate-limits): every signed-in caller has a policy —
 * a key its own `rate` per minute, the admin token and each signed-in person theirs — counted by its
 * own Durable Object (rate-window.ts). Every admin answer carries the IETF fields
 * (draft-ietf-httpapi-ratelimit-headers, structured fields): `RateLimit-Policy: "key";q=600;w=60` and
 * `RateLimit: "key";r=599;t=42`; past the quota it is 429 with `Retry-After`. A counter that fails or
 * has not answered in `LIMIT_BUDGET_MS` lets the call through without the fields: the operators'
 * work is not refused because a counter is late. An install making invite links for its user
 * (docs/campaign-links.md#invite-links-from-the-app) is counted the same way, by the minute and by the day.
 */
import type { Context } from 'hono';
import type { AppEnv } from '../env.ts';
import { inJurisdiction } from '../lib/jurisdiction.ts';
import { withinBudget } from '../lib/within-budget.ts';
import { settingsOf } from '../settings.ts';

/** A caller's policy: its name in the fields, its quota per window, the window in seconds. */
export interface RatePolicy {
  name: 'key' | 'token' | 'sign-in' | 'install' | 'install-day';
  /** Who is counted: one Durable Object per bucket. */
  bucket: string;
  quota: number;
  window: number;
}

/** A key's calls per minute unless it was given its own. */
export const KEY_RATE = 600;
/** The admin token's calls per minute: the CLIs and scripts share it. */
export const TOKEN_RATE = 1200;
/**
 * The development token's (`lander-dev-admin`) calls per minute: on the local server every test,
 * script and console tab shares it at once.
 */
export const DEV_TOKEN_RATE = 12_000;
/** A signed-in person's calls per minute: the console's panels make a few dozen at a time. */
export const PERSON_RATE = 600;
/** How long a call waits on its counter. */
const LIMIT_BUDGET_MS = 250;

/** A window in words: `a minute`, `a day`, or its seconds. */
const spanOf = (seconds: number): string =>
  seconds === 60 ? 'a minute' : seconds === 86_400 ? 'a day' : `in ${seconds} s`;

/**
 * Spends one call of `policy`: sets the fields on the answer, and answers the 429 when the quota is
 * spent (undefined when the call may go on).
 */
export async function spendCall(c: Context<AppEnv>, policy: RatePolicy): Promise<Response | undefined> {
  const namespace = inJurisdiction(c.env.OPERATOR_LIMITS, settingsOf(c.env).jurisdiction);
  const stub = namespace.get(namespace.idFromName(`${policy.name}:${policy.bucket}`));
  const answer = await withinBudget(stub.take(policy.quota, policy.window), LIMIT_BUDGET_MS).catch((error: unknown) => {
    console.error('Admin rate limit not counted', error instanceof Error ? error.message : String(error));
    return null;
  });
  if (!answer) return undefined;
  // A call spending several policies (an app's invite link: a minute's and a day's) lists each.
  c.header('RateLimit-Policy', `"${policy.name}";q=${policy.quota};w=${policy.window}`, { append: true });
  c.header('RateLimit', `"${policy.name}";r=${answer.remaining};t=${answer.resetSeconds}`, { append: true });
  if (answer.allowed) return undefined;
  c.header('Retry-After', String(answer.resetSeconds));
  return c.json(
    {
      error: `Too many calls: ${policy.quota} ${spanOf(policy.window)} for this ${policy.name}; try again in ${answer.resetSeconds} s`,
    },
    429,
  );
}
