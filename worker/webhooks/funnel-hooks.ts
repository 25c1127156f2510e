/**
 * The events the funnel counts, as webhooks (docs/webhooks.md#events): attribution's routes and the
 * links API call these beside their counting. Nothing personal leaves raw (docs/operators.md#what-is-stored): the
 * app's install id becomes a keyed hash (the attribution salt, its own prefix), stable so a receiver
 * can join an install to its later opens and events; no address, agent or visitor id is sent.
 */
import type { Context } from 'hono';
import type { AppEventData, ClickData, InstallData, LinkData } from '../../shared/webhooks.ts';
import type { InstallAnswer } from '../attribution/contract.ts';
import type { StoredLink } from '../campaign/links.ts';
import type { AppEnv } from '../env.ts';
import { keyedHash } from '../lib/keyed-hash.ts';
import { settingsOf } from '../settings.ts';
import { emitWebhook } from './emit.ts';

/** What the app's call names: its app, its install id and (on an install) its platform. */
export interface AppCall {
  app: string;
  installId: string;
  platform?: 'ios' | 'android' | 'harmony';
}

/** The keyed hash of an app's install id sent in place of it. */
export async function installHash(env: Env, app: string, installId: string): Promise<string> {
  const salt = settingsOf(env).attributionSalt;
  return salt ? keyedHash(salt, `webhook-install\u0000${app}\u0000${installId}`) : '';
}

function country(c: Context<AppEnv>): string {
  const value = c.req.raw.cf?.country;
  return typeof value === 'string' ? value.slice(0, 8) : '';
}

/**
 * The `data` of an install or an open answered with `answer`; `flags` are the fraud rules' names on
 * the install (docs/fraud.md), `[]` for an open.
 */
export async function installData(
  env: Env,
  call: AppCall,
  answer: InstallAnswer,
  where: string,
  flags: Promise<readonly { rule: string }[]> | readonly { rule: string }[] = [],
): Promise<InstallData> {
  const raised = await flags;
  return {
    app: call.app,
    platform: call.platform ?? null,
    install: await installHash(env, call.app, call.installId),
    matched: answer.matched,
    method: answer.matched ? answer.method : null,
    confidence: answer.matched ? answer.confidence : null,
    campaign: answer.matched ? answer.data : {},
    clickedAt: answer.matched ? answer.clickedAt : null,
    reason: answer.matched ? null : answer.reason,
    flags: raised.map((flag) => flag.rule),
    country: where,
  };
}

/** An `install` or `open` webhook for the app's call, after the response; `id` keeps an install decided twice one event. */
export function webhookAnswer(
  c: Context<AppEnv>,
  type: 'install' | 'open',
  call: AppCall,
  answer: InstallAnswer,
  flags?: Promise<readonly { rule: string }[]>,
  id?: string,
): void {
  emitWebhook(c.env, c.executionCtx, type, installData(c.env, call, answer, country(c), flags), id);
}

/**
 * An `event` webhook: an app event under its install's answer (none when the install is unknown).
 * `key` is the event's keyed id when the app named it (funnel/count-attribution.ts `eventKey`): an
 * SDK's retry is then the same webhook event, sent once.
 */
export function webhookAppEvent(
  c: Context<AppEnv>,
  call: AppCall & { name: string; value?: number },
  answer: InstallAnswer | null,
  key?: string,
): void {
  const matched = answer?.matched === true;
  const data = async (): Promise<AppEventData> => ({
    app: call.app,
    install: await installHash(c.env, call.app, call.installId),
    name: call.name,
    value: call.value ?? null,
    matched,
    campaign: answer?.matched ? answer.data : {},
    country: country(c),
  });
  emitWebhook(c.env, c.executionCtx, 'event', data(), key?.replace(/^event:/, ''));
}

/** A `click` webhook: a person's tap under the page's signed campaign and short link. */
export function webhookClick(c: Context<AppEnv>, action: string, campaign: Record<string, string>, link: string): void {
  const data: ClickData = {
    action,
    campaign,
    link: link || null,
    os: c.get('device').operatingSystem,
    country: country(c),
    lang: c.get('device').language,
  };
  emitWebhook(c.env, c.executionCtx, 'click', data);
}

/** The `data` of a link event. */
export function linkData(link: StoredLink): LinkData {
  return {
    slug: link.slug,
    data: link.data,
    createdAt: new Date(link.createdAt).toISOString(),
    expiresAt: link.expiresAt === null ? null : new Date(link.expiresAt).toISOString(),
  };
}

/** A `link.created`, `link.updated` or `link.deleted` webhook. */
export function webhookLink(
  c: Context<AppEnv>,
  type: 'link.created' | 'link.updated' | 'link.deleted',
  link: StoredLink,
): void {
  emitWebhook(c.env, c.executionCtx, type, linkData(link));
}
