/**
 * What attribution's routes announce (docs/attribution.md, docs/operators.md): each fact made whole
 * before it is announced — a tap's campaign decoded and its short link verified, an app call's
 * dimensions, an install's click visitor and network bucket, an app event's keyed id — and the flags
 * the announcement raised kept in the ledger beside the install's answer.
 */
import type { Context } from 'hono';
import type { AdClick } from '../../shared/ad-clicks.ts';
import { type Campaign, NO_CAMPAIGN } from '../../shared/campaign.ts';
import type { DeviceInfo } from '../../shared/device.ts';
import { resolveLink } from '../campaign/links.ts';
import { readToken } from '../campaign/query-data.ts';
import type { AppEnv } from '../env.ts';
import type { Dimensions, InstallAnswer, OsFamily, RaisedFlags, Tapped } from '../facts.ts';
import { keyedHash } from '../lib/keyed-hash.ts';
import { eventDimensions } from '../lib/visit.ts';
import { settingsOf } from '../settings.ts';
import type { ClickInput, StoreChannelInput } from './contract.ts';
import { type ClickArm, ledgerFor } from './ledger.ts';

const OS_OF: Record<OsFamily, DeviceInfo['operatingSystem']> = {
  ios: 'iOS',
  android: 'Android',
  harmony: 'Harmony',
};

const signedOnly = (data: Record<string, string> | undefined): Campaign =>
  data ? { signed: data, plain: {} } : NO_CAMPAIGN;

/**
 * The short link a tap was made on: the slug the page sent, when the stored link carries the very
 * token the tap reports; else none. A forged slug can name only a link whose token it also has. With
 * it, the variant the page sent when the link has one of that name (docs/smart-links.md); else ''.
 */
async function tapLink(env: Env, app: string, body: ClickInput): Promise<ClickArm> {
  if (!body.link || !body.d) return { link: '', variant: '' };
  const link = await resolveLink(env, app, body.link);
  if (link?.token !== body.d) return { link: '', variant: '' };
  const known = link.experiment?.variants.some(({ name }) => name === body.variant);
  return { link: body.link, variant: known && body.variant ? body.variant : '' };
}

/**
 * A person's tap (never a bot's: the caller checks), under the campaign of the token the page carried
 * and, on a short link's page, under that link. Made after the response: the token is decrypted and
 * the link looked up then, not while the beacon waits; it happened at `at`, when the tap arrived.
 */
export async function tapped(c: Context<AppEnv>, body: ClickInput, at: number): Promise<Tapped> {
  const { link, variant } = await tapLink(c.env, c.get('app'), body).catch(() => ({ link: '', variant: '' }));
  const campaign = signedOnly(body.d ? readToken(body.d, settingsOf(c.env).decodeKey) : undefined);
  // Its install and the install's events count under the variant too (`clickArm`).
  if (variant) await ledgerFor(c.env, c.get('app'), body.clickId).noteArm(body.clickId, { link, variant }, at);
  return {
    fact: 'tapped',
    at,
    action: body.action,
    campaign: campaign.signed,
    link,
    dims: eventDimensions(c, campaign, link, variant),
  };
}

/**
 * The dimensions of a call from the app: the answer's campaign, the request's country and language;
 * the OS the app says it runs on, if it says, since an app's HTTP client names no browser.
 */
export function appDimensions(c: Context<AppEnv>, answer: InstallAnswer | null, platform?: OsFamily): Dimensions {
  const dims = eventDimensions(c, signedOnly(answer?.matched ? answer.data : undefined));
  return { ...dims, os: platform ? OS_OF[platform] : '', inapp: '' };
}

/**
 * An install's dimensions with the channel its store reported (docs/attribution.md#the-stores):
 * `<store>:<channel>`, only when no carrier's signed campaign named a channel of its own.
 */
export function withStoreChannel(dims: Dimensions, store: StoreChannelInput | undefined): Dimensions {
  if (!store || dims.channel) return dims;
  return { ...dims, channel: `${store.store}:${store.channel}` };
}

/**
 * The keyed id of the app event `id` of `(app, installId)`: a retried event is the same event (counted
 * once, funnel/consume-batch.ts; sent once) and the install id is not stored.
 */
export async function eventKey(salt: string, app: string, installId: string, id: string): Promise<string> {
  return `event:${await keyedHash(salt, `event\n${app}\n${installId}\n${id}`)}`;
}

/** The keyed visitor hash of the click an answer was matched to, `''` without one. */
export async function clickVisitor(env: Env, app: string, answer: InstallAnswer | null | undefined): Promise<string> {
  if (!answer?.matched) return '';
  return (await ledgerFor(env, app, answer.clickId).visitorOf(answer.clickId)) ?? '';
}

/**
 * The short link and variant of the click an answer was matched to, when its tap was on a link with
 * variants; else null (docs/smart-links.md#variants-and-the-sequential-test).
 */
export async function clickArm(
  env: Env,
  app: string,
  answer: InstallAnswer | null | undefined,
): Promise<ClickArm | null> {
  if (!answer?.matched) return null;
  return ledgerFor(env, app, answer.clickId).armOf(answer.clickId);
}

/**
 * The ad click of the click an answer was matched to, while the attribution window keeps it
 * (docs/conversions.md#ad-click-ids); else null.
 */
export async function clickAd(
  env: Env,
  app: string,
  answer: InstallAnswer | null | undefined,
  now = Date.now(),
): Promise<AdClick | null> {
  if (!answer?.matched) return null;
  return ledgerFor(env, app, answer.clickId).adOf(answer.clickId, now);
}

/** Keeps the flags an announcement raised beside their installs' answers in the ledger (docs/fraud.md). */
export async function keepRaised(env: Env, app: string, raised: Promise<RaisedFlags[]>, now: number): Promise<void> {
  for (const { install, flags } of await raised) {
    if (flags.length > 0) await ledgerFor(env, app, install).flag(install, flags, now);
  }
}
