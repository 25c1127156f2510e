/**
 * The audit log's daily signed head (docs/operators.md#audit-log): the Cron Trigger's run signs the
 * last entry's seq and hash with Ed25519 (`AUDIT_SIGNING_KEY`) and writes it to R2 as
 * `audit/heads/YYYY-MM-DD.json`, so a copy of the log cut short or rewritten from its end is caught
 * by `npm run audit:verify -- --head`. Without a key, or when R2 or D1 fails, the head is not
 * written and the loss is counted (`audit-heads`, docs/reliability.md); the run goes on.
 */
import { toBase64Url } from '../../shared/base64url.ts';
import { utcDay } from '../../shared/time-zone.ts';
import { countLoss } from '../reliability/losses.ts';
import { settingsOf } from '../settings.ts';
import { headOf } from './append.ts';
import { headMessage, type SignedHead } from './chain.ts';

/** Where the head signed on `day` is kept in the exports bucket. */
export const headKey = (day: string): string => `audit/heads/${day}.json`;

/** The private key of `text` (a JWK, or PKCS8 in base64) and its public half's JWK `x`. */
export async function signingKeyOf(text: string): Promise<{ key: CryptoKey; publicKey: string }> {
  const trimmed = text.trim();
  const key = trimmed.startsWith('{')
    ? await crypto.subtle.importKey('jwk', JSON.parse(trimmed) as JsonWebKey, 'Ed25519', true, ['sign'])
    : await crypto.subtle.importKey('pkcs8', base64Bytes(trimmed), 'Ed25519', true, ['sign']);
  const { x } = (await crypto.subtle.exportKey('jwk', key)) as JsonWebKey;
  if (!x) throw new Error('AUDIT_SIGNING_KEY has no public half');
  return { key, publicKey: x };
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(text);
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

/** Signs the log's head at `now` and writes it to R2; answers what it did. Never throws. */
export async function signDailyHead(env: Env, now: number): Promise<'signed' | 'no key' | 'failed'> {
  const text = settingsOf(env).auditSigningKey;
  if (!text) {
    await countLoss(env, 'audit-heads', 1, now);
    return 'no key';
  }
  try {
    const { key, publicKey } = await signingKeyOf(text);
    const { seq, hash } = await headOf(env.FUNNEL_DB);
    const body = { seq, hash, at: now };
    const signature = toBase64Url(new Uint8Array(await crypto.subtle.sign('Ed25519', key, headMessage(body))));
    const head: SignedHead = { ...body, signature, publicKey };
    await env.EXPORTS.put(headKey(utcDay(now)), `${JSON.stringify(head)}\n`, {
      httpMetadata: { contentType: 'application/json' },
    });
    return 'signed';
  } catch (error) {
    console.error('Audit head not signed', error instanceof Error ? error.message : String(error));
    await countLoss(env, 'audit-heads', 1, now);
    return 'failed';
  }
}
