/**
 * `npm run privacy:verify -- RECEIPT [--public-key KEY] [--token TOKEN]` (docs/privacy.md#requests-erasure-and-access):
 * checks a privacy request's signed receipt — a file, or the URL of `GET /api/privacy/requests/<id>`
 * (with the admin token or an API key from `--token` or `LANDER_TOKEN`) — with the Ed25519 public key
 * the operator keeps (a JWK file or its `x`), or, for a URL, the one its deployment publishes at
 * `/api/privacy/receipt-key`. Exit 0 when it verifies, 1 when it does not, 2 for what cannot be read.
 */
import { existsSync, readFileSync } from 'node:fs';
import * as v from 'valibot';
import { ReceiptSchema } from '../shared/privacy.ts';
import { canonicalJson } from '../worker/audit/chain.ts';
import { cliArgsWithFiles, helpIfAsked, refuse } from './lib/cli-args.ts';

const NAME = 'privacy:verify';
const USAGE = 'usage: npm run privacy:verify -- RECEIPT.json|URL [--public-key KEY] [--token TOKEN]';

const fromBase64Url = (text: string): Uint8Array<ArrayBuffer> =>
  new Uint8Array(Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));

/** The receipt of `source`: a receipt file, or a request's status (file or URL) holding one. */
async function receiptOf(source: string, token: string | undefined): Promise<unknown> {
  if (/^https?:\/\//.test(source)) {
    const answer = await fetch(source, token ? { headers: { authorization: `Bearer ${token}` } } : {});
    if (!answer.ok) refuse(NAME, `${source} answered ${answer.status}`);
    return answer.json();
  }
  try {
    return JSON.parse(readFileSync(source, 'utf8'));
  } catch (error) {
    return refuse(NAME, `cannot read ${source}: ${(error as Error).message}`);
  }
}

/** The key's `x`: KEY itself, the `x` of the JWK file KEY names, or the deployment's published key. */
async function publicKeyOf(key: string | undefined, source: string): Promise<string> {
  if (key && existsSync(key)) {
    const jwk = JSON.parse(readFileSync(key, 'utf8')) as { x?: unknown };
    return typeof jwk.x === 'string' ? jwk.x : refuse(NAME, `--public-key: ${key} is not an Ed25519 JWK`);
  }
  if (key) return key;
  if (!/^https?:\/\//.test(source)) return refuse(NAME, '--public-key: needed to check a receipt file');
  const url = new URL(source);
  const base = url.pathname.replace(/\/api\/privacy\/.*$/, '');
  const answer = await fetch(`${url.origin}${base}/api/privacy/receipt-key`);
  const jwk = (await answer.json()) as { x?: unknown };
  return typeof jwk.x === 'string' ? jwk.x : refuse(NAME, `${url.origin}${base}/api/privacy/receipt-key gave no key`);
}

async function main(): Promise<void> {
  helpIfAsked(NAME, {
    summary: "Checks a privacy request's signed receipt with the deployment's public key.",
    usage: USAGE,
    flags: [
      [
        'RECEIPT',
        'a receipt (or a request status holding one) as a file, or the URL of GET /api/privacy/requests/<id>',
      ],
      ['--public-key KEY', 'the public key: a JWK file, or its x (base64url); a URL fetches /api/privacy/receipt-key'],
      ['--token TOKEN', 'the admin token or an API key for a URL (else LANDER_TOKEN)'],
    ],
    example: 'npm run privacy:verify -- receipt.json --public-key privacy-public.jwk',
  });
  const { values, positionals } = cliArgsWithFiles(NAME, USAGE, {
    'public-key': { type: 'string' },
    token: { type: 'string' },
  });
  const source = positionals[0];
  if (!source || positionals.length > 1) refuse(NAME, USAGE);
  const read = (await receiptOf(source, values.token ?? process.env.LANDER_TOKEN)) as { receipt?: unknown };
  const candidate = read && typeof read === 'object' && 'alg' in read ? read : read?.receipt;
  const parsed = v.safeParse(ReceiptSchema, candidate);
  if (!parsed.success) return refuse(NAME, `${source} holds no receipt: ${v.summarize(parsed.issues)}`);
  const receipt = parsed.output;
  const x = await publicKeyOf(values['public-key'], source);
  if (x !== receipt.public_key) console.warn(`The receipt names key ${receipt.public_key}; checking with ${x}.`);
  const key = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x }, 'Ed25519', false, ['verify']);
  const message = new TextEncoder().encode(canonicalJson(receipt.receipt));
  if (!(await crypto.subtle.verify('Ed25519', key, fromBase64Url(receipt.signature), message))) {
    console.error(`The receipt of ${receipt.receipt.subject_request_id} does not verify with key ${x}.`);
    process.exit(1);
  }
  const { subject_request_id: id, subject_request_type: type, completed_time: at, lines } = receipt.receipt;
  console.log(`Verified: ${type} ${id}, completed ${at}:`);
  for (const line of lines) console.log(`  ${line.store} ${line.where}: ${line.count}`);
}

if (import.meta.main) await main();
