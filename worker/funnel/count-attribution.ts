/**
 * What attribution tells the funnel (docs/operators.md): a tap with its action, an install or an
 * open with its method (or why it was not matched), an app event. A tap is counted under the page's
 * signed campaign; an install, an open and an app event under the campaign of the install's answer.
 * Each is sent after the response (`countEvent`), never delaying it.
 */
import type { Context } from 'hono';
import { type Campaign, NO_CAMPAIGN } from '../../shared/campaign.ts';
import type { DeviceInfo } from '../../shared/device.ts';
import type { AppEventInput, ClickInput, InstallAnswer } from '../attribution/contract.ts';
import type { OsFamily } from '../attribution/os-version.ts';
import { resolveLink } from '../campaign/links.ts';
import { readToken } from '../campaign/query-data.ts';
import type { AppEnv } from '../env.ts';
import { keyedHash } from '../lib/keyed-hash.ts';
import { settingsOf } from '../settings.ts';
import { webhookClick } from '../webhooks/funnel-hooks.ts';
import type { Dimensions, FunnelEvent } from './events.ts';
import { countEvent, eventDimensions } from './from-request.ts';

const OS_OF: Record<OsFamily, DeviceInfo['operatingSystem']> = {
  ios: 'iOS',
  android: 'Android',
  harmony: 'Harmony',
};

const signedOnly = (data: Record<string, string> | undefined): Campaign =>
  data ? { signed: data, plain: {} } : NO_CAMPAIGN;

/**
 * The short link a tap was made on: the slug the page sent, when the stored link carries the very
 * token the tap reports; else none. A forged slug can name only a link whose token it also has.
 */
async function tapLink(env: Env, body: ClickInput): Promise<string> {
  if (!body.link || !body.d) return '';
  const link = await resolveLink(env, body.link);
  return link?.token === body.d ? body.link : '';
}

/**
 * A person's tap (never a bot's: the caller checks), under the campaign of the token the page carried
 * and, on a short link's page, under that link. Resolved after the response. A tap makes no visitor:
 * its visitor was counted by the view of the page it was made on (docs/operators.md#visitors), and a
 * tap on a page left open since yesterday would otherwise be a visitor with no view.
 */
export function countTap(c: Context<AppEnv>, body: ClickInput): void {
  const { decodeKey } = settingsOf(c.env);
  // Counted on the day of the tap, though its link is looked up after the response.
  const at = Date.now();
  // The token is decrypted here, after the response, not while the beacon waits.
  const count = (link: string) => {
    const campaign = signedOnly(body.d ? readToken(body.d, decodeKey) : undefined);
    countEvent(c, { event: { type: 'tap', action: body.action }, dims: eventDimensions(c, campaign, link), at });
    webhookClick(c, body.action, campaign.signed, link);
  };
  c.executionCtx.waitUntil(
    tapLink(c.env, body)
      .catch(() => '')
      .then(count),
  );
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
 * An install or an open, with how it was matched or why it was not. `id` is the message id of an
 * install (`installMessageId`): counted once however often it is decided. `install` is an open's
 * install key: its opens are counted up to a daily bound (docs/operators.md#bounds). `at` is when it
 * was decided, when it is counted later.
 */
export function countAnswer(
  c: Context<AppEnv>,
  type: 'install' | 'open',
  answer: InstallAnswer,
  { platform, id, install, at }: { platform?: OsFamily; id?: string; install?: string; at?: number } = {},
): void {
  const event: FunnelEvent = answer.matched ? { type, method: answer.method } : { type, unmatched: answer.reason };
  countEvent(c, {
    event,
    dims: appDimensions(c, answer, platform),
    ...(id ? { id } : {}),
    ...(install ? { install } : {}),
    ...(at === undefined ? {} : { at }),
  });
}

/**
 * The funnel message id of the install whose ledger key is `key` (a keyed hash of the app and the
 * install id): an install decided twice — its storage down past the catch-up, then the app's retry
 * (docs/reliability.md) — is the same message, counted once (funnel/consume-batch.ts).
 */
export const installMessageId = (key: string): string => `install:${key}`;

/**
 * The funnel message id of the app event `id` of `(app, installId)`: a keyed hash, so a retried event
 * is the same message (counted once, worker/funnel/consume-batch.ts) and the install id is not stored.
 */
export async function eventKey(salt: string, app: string, installId: string, id: string): Promise<string> {
  return `event:${await keyedHash(salt, `event\n${app}\n${installId}\n${id}`)}`;
}

/** Which app and install an app event is of: its app's names and its install's day are bounded (docs/operators.md#bounds). */
export interface EventSource {
  app: string;
  /** The install's key (`installKey`). */
  install: string;
}

/**
 * An app event, under the campaign of the install's answer (none when the install is unknown); `id`
 * is its message id (`eventKey`) when the app named the event.
 */
export function countAppEvent(
  c: Context<AppEnv>,
  body: Pick<AppEventInput, 'name' | 'value'>,
  answer: InstallAnswer | null,
  source: EventSource,
  id?: string,
): void {
  const event: FunnelEvent = {
    type: 'event',
    name: body.name,
    ...(body.value === undefined ? {} : { value: body.value }),
  };
  countEvent(c, { event, dims: appDimensions(c, answer), ...source, ...(id ? { id } : {}) });
}
