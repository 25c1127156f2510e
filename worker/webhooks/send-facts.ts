/**
 * The webhooks' listener (docs/webhooks.md#events): each fact a receiver hears of becomes its event —
 * a tap a `click`, an install or an open its `install` or `open`, an app event an `event`, a link's
 * change `link.*`; a page view and a sign-in send nothing. Nothing personal leaves raw
 * (docs/operators.md#what-is-stored): the app's install id becomes a keyed hash (under the app's own
 * join key, `installJoinKey`), stable so a receiver can join an install to its later opens and events; no address,
 * agent or visitor id is sent.
 */
import type { AppEventData, ClickData, InstallData, LinkData } from '../../shared/webhooks.ts';
import type {
  AppEventReceived,
  InstallDecided,
  Listener,
  OpenDecided,
  RaisedFlags,
  StoredLink,
  Tapped,
} from '../facts.ts';
import { keyedHash } from '../lib/keyed-hash.ts';
import { settingsOf } from '../settings.ts';
import { emitWebhook } from './emit.ts';

/**
 * The key of the Lander app `tenant`'s install hashes (docs/webhooks.md#joining-an-install-to-a-user):
 * derived from the attribution salt and the app, so the app's backend that joins installs to its users
 * holds this key alone — never the salt, which keys every hash attribution stores, nor another app's
 * key. Empty without a salt.
 */
export async function installJoinKey(env: Env, tenant: string): Promise<string> {
  const salt = settingsOf(env).attributionSalt;
  return salt ? keyedHash(salt, `webhook-install-key\u0000${tenant}`) : '';
}

/** The keyed hash of an app's install id sent in place of it: `app` is the package the SDK sends. */
export async function installHash(env: Env, tenant: string, app: string, installId: string): Promise<string> {
  const key = await installJoinKey(env, tenant);
  return key ? keyedHash(key, `webhook-install\u0000${app}\u0000${installId}`) : '';
}

/** Cloudflare's country of the call, as a webhook carries it. */
const countryOf = (fact: { dims: { country: string } }): string => fact.dims.country.slice(0, 8);

/** The flags the fraud rules raised on the install `key`, `[]` when none (or flagging failed). */
async function flagsOn(raised: Promise<RaisedFlags[]>, key: string): Promise<string[]> {
  const on = (await raised).find((flags) => flags.install === key);
  return (on?.flags ?? []).map((flag) => flag.rule);
}

/** The `data` of an install or an open; `flags` are the fraud rules' names on the install (docs/fraud.md), `[]` for an open. */
export async function installData(
  env: Env,
  tenant: string,
  fact: InstallDecided | OpenDecided,
  flags: Promise<string[]> | string[] = [],
): Promise<InstallData> {
  const { answer } = fact;
  return {
    app: fact.app,
    platform: fact.fact === 'install-decided' ? fact.platform : null,
    install: await installHash(env, tenant, fact.app, fact.installId),
    matched: answer.matched,
    method: answer.matched ? answer.method : null,
    confidence: answer.matched ? answer.confidence : null,
    campaign: answer.matched ? answer.data : {},
    clickedAt: answer.matched ? answer.clickedAt : null,
    reason: answer.matched ? null : answer.reason,
    flags: await flags,
    country: countryOf(fact),
  };
}

/** The `data` of an `event`: an app event under its install's answer (none when the install is unknown). */
async function appEventData(env: Env, tenant: string, fact: AppEventReceived): Promise<AppEventData> {
  return {
    app: fact.app,
    install: await installHash(env, tenant, fact.app, fact.installId),
    name: fact.name,
    value: fact.value ?? null,
    ...(fact.currency === undefined ? {} : { currency: fact.currency }),
    matched: fact.answer?.matched === true,
    campaign: fact.answer?.matched ? fact.answer.data : {},
    country: countryOf(fact),
  };
}

/** The `data` of a `click`: a person's tap under the page's signed campaign and short link. */
function clickData(fact: Tapped): ClickData {
  return {
    action: fact.action,
    campaign: fact.campaign,
    link: fact.link || null,
    os: fact.dims.os,
    country: countryOf(fact),
    lang: fact.dims.lang,
  };
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

/**
 * Sends `fact` as its webhook event, queued after the response. An install's event id is its ledger
 * key, so an install decided twice is one event; an app event's is its keyed id when the app named it
 * (an SDK's retry is the same event); the others get a fresh one.
 */
export const sendFact: Listener = function sendFact({ env, app, ctx }, fact, raised) {
  const times = { at: fact.at };
  switch (fact.fact) {
    case 'tapped':
      return emitWebhook(env, app, ctx, 'click', clickData(fact), times);
    case 'install-decided':
      return emitWebhook(env, app, ctx, 'install', installData(env, app, fact, flagsOn(raised, fact.key)), {
        ...times,
        id: fact.key,
      });
    case 'open-decided':
      return emitWebhook(env, app, ctx, 'open', installData(env, app, fact), times);
    case 'app-event':
      return emitWebhook(env, app, ctx, 'event', appEventData(env, app, fact), {
        ...times,
        id: fact.id?.replace(/^event:/, ''),
        happened: fact.happened,
      });
    case 'link-changed':
      return emitWebhook(env, app, ctx, `link.${fact.change}`, linkData(fact.link), times);
    case 'page-viewed':
    case 'user-identified':
      return;
  }
};
