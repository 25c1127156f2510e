/**
 * The audit log's offline check (docs/operators.md#audit-log), for `npm run audit:verify`: reads an
 * export (NDJSON, one entry a line) and a signed head, recomputes the chain (worker/audit/chain.ts)
 * and names the first entry that breaks it — missing (a gap in `seq`, a file cut before the head),
 * altered (its hash is not its contents'), or altered and re-hashed (the next entry does not link to
 * it; the head, for the last). An app's export holds the other apps' entries redacted to their seq
 * and hashes (worker/audit/chain.ts `RedactedEntry`): their links are checked, their hashes taken as
 * given. No Node API: the worker's tests run it too.
 */
import { fromBase64Url } from '../../shared/base64url.ts';
import {
  type AuditEntry,
  type ExportedEntry,
  entryHash,
  GENESIS,
  headMessage,
  isRedacted,
  type RedactedEntry,
  type SignedHead,
} from '../../worker/audit/chain.ts';

/** The check's verdict: intact up to `seq`, or the first entry found missing or altered, and why. */
export type Verdict = { ok: true; seq: number; hash: string } | { ok: false; seq: number; reason: string };

/** A file the check cannot read: which line, and why. */
export class BadFile extends Error {}

const TEXT_FIELDS = ['actor', 'via', 'app', 'kind', 'action', 'target', 'prevHash', 'hash'] as const;

/** The entry of one export line, whole or redacted, or why it is not one. */
function entryOfLine(line: string, number: number): ExportedEntry {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new BadFile(`line ${number}: not JSON`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new BadFile(`line ${number}: not an object`);
  const entry = value as Record<string, unknown>;
  if (entry.redacted === true) return redactedOfLine(entry, number);
  for (const field of ['seq', 'at'] as const) {
    if (!Number.isSafeInteger(entry[field])) throw new BadFile(`line ${number}: ${field} is not a whole number`);
  }
  for (const field of TEXT_FIELDS) {
    if (typeof entry[field] !== 'string') throw new BadFile(`line ${number}: ${field} is not a string`);
  }
  if (!('before' in entry) || !('after' in entry)) throw new BadFile(`line ${number}: before and after are missing`);
  return entry as unknown as AuditEntry;
}

/** Another app's entry, redacted: its seq and hashes, nothing else. */
function redactedOfLine(entry: Record<string, unknown>, number: number): RedactedEntry {
  if (!Number.isSafeInteger(entry.seq)) throw new BadFile(`line ${number}: seq is not a whole number`);
  for (const field of ['prevHash', 'hash'] as const) {
    if (typeof entry[field] !== 'string') throw new BadFile(`line ${number}: ${field} is not a string`);
  }
  const extra = Object.keys(entry).find((field) => !['seq', 'redacted', 'prevHash', 'hash'].includes(field));
  if (extra) throw new BadFile(`line ${number}: a redacted entry has no ${extra}`);
  return entry as unknown as RedactedEntry;
}

/** The entries of an NDJSON export, in the file's order; blank lines are skipped. */
export function parseExport(text: string): ExportedEntry[] {
  return text
    .split('\n')
    .map((line, index) => ({ line: line.trim(), number: index + 1 }))
    .filter(({ line }) => line !== '')
    .map(({ line, number }) => entryOfLine(line, number));
}

/** The signed head of a head file's text, or why it is not one. */
export function parseHead(text: string): SignedHead {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadFile('head: not JSON');
  }
  const head = (value ?? {}) as Record<string, unknown>;
  if (!Number.isSafeInteger(head.seq) || !Number.isSafeInteger(head.at)) throw new BadFile('head: seq or at missing');
  for (const field of ['hash', 'signature', 'publicKey'] as const) {
    if (typeof head[field] !== 'string') throw new BadFile(`head: ${field} is not a string`);
  }
  return head as unknown as SignedHead;
}

/** Where the chain of `entries` first breaks, or that it holds (from seq 1, with no gap). */
async function checkLinks(entries: readonly ExportedEntry[]): Promise<Verdict> {
  let previous = { seq: 0, hash: GENESIS };
  for (const entry of entries) {
    const expected = previous.seq + 1;
    if (entry.seq !== expected) {
      return { ok: false, seq: expected, reason: `missing or moved: seq ${entry.seq} stands where ${expected} should` };
    }
    if (!isRedacted(entry) && (await entryHash(entry)) !== entry.hash) {
      return { ok: false, seq: entry.seq, reason: 'altered: its hash is not the hash of its contents' };
    }
    if (entry.prevHash !== previous.hash) {
      // The link is broken: the entry before was re-hashed after a change, or this entry's link was.
      const named = Math.max(previous.seq, 1);
      return { ok: false, seq: named, reason: `altered: entry ${entry.seq} does not link to entry ${previous.seq}` };
    }
    previous = { seq: entry.seq, hash: entry.hash };
  }
  return { ok: true, ...previous };
}

/**
 * Checks `entries` (the export's order) and, when given, that they reach `head` with its hash.
 * Answers the first entry missing or altered. The signature is `headSigned`'s to check.
 */
export async function checkChain(
  entries: readonly ExportedEntry[],
  head?: Pick<SignedHead, 'seq' | 'hash'>,
): Promise<Verdict> {
  const links = await checkLinks(entries);
  if (!links.ok || !head || head.seq === 0) return links;
  const atHead = entries[head.seq - 1];
  if (!atHead) {
    return {
      ok: false,
      seq: links.seq + 1,
      reason: `missing: the signed head is seq ${head.seq}, the file ends at ${links.seq}`,
    };
  }
  if (atHead.hash !== head.hash)
    return { ok: false, seq: head.seq, reason: 'altered: its hash is not the signed head’s' };
  return links;
}

/** Whether `head` is signed by the Ed25519 public key `x` (a JWK's `x`, base64url). */
export async function headSigned(head: SignedHead, x: string): Promise<boolean> {
  const signature = fromBase64Url(head.signature);
  if (!signature) return false;
  try {
    const key = await crypto.subtle.importKey('jwk', { kty: 'OKP', crv: 'Ed25519', x }, 'Ed25519', false, ['verify']);
    return await crypto.subtle.verify('Ed25519', key, new Uint8Array(signature), headMessage(head));
  } catch {
    return false;
  }
}
