/**
 * Recording a click (docs/attribution.md): its time and network bucket in the click index (so a
 * carrier can find it later from anywhere), and — for a phone on a known network — its device tuple
 * as a probabilistic candidate in that network's bucket. Only keyed hashes of the address, the
 * network and the visitor id are stored, and the campaign token as the page sent it.
 */
import { allows, type Consent } from '../../shared/consent.ts';
import type { ClientHints, DeviceInfo } from '../../shared/device/types.ts';
import type { Network } from '../facts.ts';
import { keyedHash } from '../lib/keyed-hash.ts';
import type { ClickInput } from './contract.ts';
import { bucketFor, ledgerFor } from './ledger.ts';
import { clickTuple } from './tuples.ts';

/** What every attribution call works with (routes.ts builds it once per request). */
export interface AttributionContext {
  env: Env;
  /** The app (docs/routes.md#apps): its ledger shards and buckets are its own (apps/app-keys.ts). */
  app: string;
  /** The app's key of `ATTRIBUTION_SALT` (apps/app-keys.ts `appSalt`). */
  salt: string;
  decodeKey: string | undefined;
  now: number;
  /** The probabilistic window (config `attribution.window_hours`). */
  windowMs: number;
  network: Network | null;
  /** The visitor's or install's consent (docs/privacy.md, "Consent"); none stops nothing. */
  consent?: Consent;
}

export interface ClickContext extends AttributionContext {
  device: DeviceInfo;
  headerHints: ClientHints;
}

/** How long a click stays a candidate: the window, then as long again to answer `expired`. */
export const retention = (windowMs: number): number => 2 * windowMs;

/** The keyed hashes attribution stores for a network. */
export async function networkKeys(salt: string, network: Network): Promise<{ bucket: string; address: string }> {
  const [bucket, address] = await Promise.all([
    keyedHash(salt, `network\n${network.prefix}`),
    keyedHash(salt, `address\n${network.address}`),
  ]);
  return { bucket: `net:${bucket}`, address };
}

/** The keyed hash a page's visitor id is kept as (and erased by, docs/privacy.md#requests-erasure-and-access). */
export const visitorHash = (salt: string, visitorId: string): Promise<string> =>
  keyedHash(salt, `visitor\n${visitorId}`);

export async function recordClick(ctx: ClickContext, body: ClickInput): Promise<void> {
  const { env, app, salt, now, network } = ctx;
  const keys = network ? await networkKeys(salt, network) : null;
  const visitor = body.visitorId ? await visitorHash(salt, body.visitorId) : null;
  const ledger = ledgerFor(env, app, body.clickId);
  const writes: Promise<void>[] = [ledger.indexClick(body.clickId, { bucket: keys?.bucket ?? '', at: now, visitor })];
  // An ad click is kept only for a visitor whose consent allows sends to third parties, for the window.
  if (body.ad && allows(ctx.consent ?? [], 'thirdParty'))
    writes.push(ledger.noteAd(body.clickId, { ad: body.ad, until: now + ctx.windowMs }));
  const tuple = clickTuple(ctx.device, ctx.headerHints, body);
  // A visitor whose consent stops the probabilistic match is never a look-alike: only its carrier credits.
  if (keys && tuple && allows(ctx.consent ?? [], 'probabilisticMatch')) {
    // Kept as sent: the match reads it through its signature (resolve-install.ts), so nothing
    // unsigned ever reaches an app, and the tap is not kept waiting for a decryption.
    const token = body.d ?? null;
    writes.push(
      bucketFor(env, app, keys.bucket).record(
        { ...tuple, clickId: body.clickId, at: now, visitor, address: keys.address, token },
        now + retention(ctx.windowMs),
      ),
    );
  }
  await Promise.all(writes);
}
