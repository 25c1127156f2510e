/**
 * Signed receipts of privacy requests (docs/privacy.md#requests-erasure-and-access): the receipt's
 * body as RFC 8785 canonical JSON, signed with Ed25519 by `PRIVACY_RECEIPT_KEY` (WebCrypto), with the
 * public half's JWK `x` beside it. `npm run privacy:verify` checks one with the public key the
 * operator keeps or `GET /api/privacy/receipt-key` publishes.
 */
import { toBase64Url } from '../../shared/base64url.ts';
import type { Receipt, ReceiptBody } from '../../shared/privacy.ts';
import { canonicalJson } from '../audit/chain.ts';
import { signingKeyOf } from '../audit/sign-head.ts';

/** The bytes a receipt's signature covers: the canonical JSON of its body. */
export const receiptMessage = (body: ReceiptBody): Uint8Array<ArrayBuffer> =>
  new Uint8Array(new TextEncoder().encode(canonicalJson(body)));

/** `body` signed with the private key `keyText` (a JWK, or PKCS8 in base64). */
export async function signReceipt(keyText: string, body: ReceiptBody): Promise<Receipt> {
  const { key, publicKey } = await signingKeyOf(keyText);
  const signature = new Uint8Array(await crypto.subtle.sign('Ed25519', key, receiptMessage(body)));
  return { receipt: body, alg: 'Ed25519', signature: toBase64Url(signature), public_key: publicKey };
}

/** The public half of `keyText`, as the JWK `GET /api/privacy/receipt-key` answers. */
export async function receiptPublicKey(keyText: string): Promise<{ kty: 'OKP'; crv: 'Ed25519'; x: string }> {
  const { publicKey } = await signingKeyOf(keyText);
  return { kty: 'OKP', crv: 'Ed25519', x: publicKey };
}
