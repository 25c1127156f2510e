/**
 * Flagging an install (docs/fraud.md), after the response: the time rules, self-referral and the
 * busy network, kept in the ledger beside the answer and in D1 for the funnel's `flagged` counts,
 * the anomalies and the console. The app's answer is never changed; a failure is logged and flags nothing.
 */
import type { Context } from 'hono';
import type { InstallAnswer, InstallInput } from '../attribution/contract.ts';
import { ledgerFor } from '../attribution/ledger.ts';
import { type AttributionContext, networkKeys } from '../attribution/record-click.ts';
import type { AppEnv } from '../env.ts';
import { appDimensions } from '../funnel/count-attribution.ts';
import { busyNetwork } from './busy-network.ts';
import { type Flag, timeFlags } from './rules.ts';
import { type DeviceKeys, selfReferral } from './self-referral.ts';
import { keepInstall } from './store.ts';

/** The install being flagged: its ledger key, what the app sent, and its answer. */
export interface AnsweredInstall {
  key: string;
  body: InstallInput;
  answer: InstallAnswer;
}

/** The keyed visitor hash of the click an answer was matched to, `''` without one. */
export async function clickVisitor(env: Env, answer: InstallAnswer | null | undefined): Promise<string> {
  if (!answer?.matched) return '';
  return (await ledgerFor(env, answer.clickId).visitorOf(answer.clickId)) ?? '';
}

async function decideFlags(c: Context<AppEnv>, ctx: AttributionContext, install: AnsweredInstall): Promise<Flag[]> {
  const { key, body, answer } = install;
  const clickedAt = answer.matched && answer.clickedAt ? Date.parse(answer.clickedAt) : null;
  const tooFastSeconds = c.get('config').config.fraud.too_fast_seconds;
  const flags = timeFlags({ clickedAt, launchedAt: ctx.now, referrer: body.installReferrer, tooFastSeconds });
  const device: DeviceKeys = { install: key, visitor: await clickVisitor(ctx.env, answer) };
  const inviter = answer.matched ? (answer.data.inviter ?? '') : '';
  const [self, busy] = await Promise.all([
    selfReferral(ctx.env.FUNNEL_DB, ctx.salt, inviter, device),
    busyNetwork(ctx.env, ctx.salt, ctx.network),
  ]);
  if (self) flags.push(self);
  if (busy) flags.push(busy);
  const [stored, network] = await Promise.all([
    ledgerFor(ctx.env, key).flag(key, flags, ctx.now),
    ctx.network ? networkKeys(ctx.salt, ctx.network).then((keys) => keys.bucket) : '',
  ]);
  await keepInstall(
    ctx.env.FUNNEL_DB,
    {
      id: key,
      at: ctx.now,
      dims: appDimensions(c, answer, body.platform),
      method: answer.matched ? answer.method : `unmatched:${answer.reason}`,
      network,
      visitor: device.visitor,
    },
    stored,
  );
  return stored;
}

/**
 * Flags a first, counted install after the response; answers its flags (for the webhook), `[]` when
 * flagging failed.
 */
export function flagInstall(c: Context<AppEnv>, ctx: AttributionContext, install: AnsweredInstall): Promise<Flag[]> {
  const flags = decideFlags(c, ctx, install).catch((error: unknown) => {
    console.error('Install not flagged', error instanceof Error ? error.message : String(error));
    return [];
  });
  c.executionCtx.waitUntil(flags);
  return flags;
}
