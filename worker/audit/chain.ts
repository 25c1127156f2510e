/**
 * The audit log's chain (docs/operators.md#audit-log): an entry as it is kept and exported, its RFC
 * 8785 canonical JSON (JSON Canonicalization Scheme), and its hash — SHA-256 over the canonical JSON
 * of every field but `hash`, `prevHash` included — so changing or removing any entry breaks every
 * link after it. The worker appends with it; `npm run audit:verify` (scripts/lib/audit-check.ts)
 * recomputes it offline. Only WebCrypto: the same code runs in workerd and in Node.
 */

/** The `prevHash` of the first entry. */
export const GENESIS = '0'.repeat(64);

/** One entry of the log, as `GET /api/audit` and the NDJSON export give it. */
export interface AuditEntry {
  seq: number;
  /** When the change was committed (ms since the epoch). */
  at: number;
  actor: string;
  via: string;
  app: string;
  kind: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
  prevHash: string;
  hash: string;
}

/**
 * Another app's entry in an app's export (docs/operators.md#audit-log): only what links the chain, so
 * an app's auditor checks the whole chain without reading another app's changes. Its hash is taken
 * as given: only the deployment's whole export recomputes it.
 */
export interface RedactedEntry {
  seq: number;
  redacted: true;
  prevHash: string;
  hash: string;
}

/** One line of an export: an entry whole, or another app's redacted to its hashes. */
export type ExportedEntry = AuditEntry | RedactedEntry;

/** `entry` redacted to its seq and hashes. */
export const redactedOf = ({ seq, prevHash, hash }: AuditEntry): RedactedEntry => ({
  seq,
  redacted: true,
  prevHash,
  hash,
});

/** Whether an export's line is another app's entry, redacted. */
export const isRedacted = (entry: ExportedEntry): entry is RedactedEntry => 'redacted' in entry && entry.redacted;

/** The daily signed head (`audit/heads/YYYY-MM-DD.json` in R2): the last entry's seq and hash, signed. */
export interface SignedHead {
  seq: number;
  hash: string;
  /** When it was signed (ms). */
  at: number;
  /** Ed25519 over `headMessage`, base64url. */
  signature: string;
  /** The public key that verifies it (JWK `x`), for the operator to compare with the one they keep. */
  publicKey: string;
}

/**
 * RFC 8785: object members sorted by their names' UTF-16 code units (JavaScript's default sort),
 * no whitespace, strings and numbers as ECMAScript's JSON.stringify writes them — which is the
 * scheme's own definition of both. A value JSON cannot hold (a non-finite number, a function) throws.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError('canonical JSON has no non-finite number');
    return JSON.stringify(value);
  }
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (typeof value === 'object') {
    const members = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${members.map(([name, item]) => `${JSON.stringify(name)}:${canonicalJson(item)}`).join(',')}}`;
  }
  throw new TypeError(`canonical JSON has no ${typeof value}`);
}

const hex = (bytes: ArrayBuffer): string =>
  Array.from(new Uint8Array(bytes), (byte) => byte.toString(16).padStart(2, '0')).join('');

/** The hash an entry must carry: SHA-256 (hex) of the canonical JSON of all its fields but `hash`. */
export async function entryHash(entry: Omit<AuditEntry, 'hash'>): Promise<string> {
  const { seq, at, actor, via, app, kind, action, target, before, after, prevHash } = entry;
  const body = canonicalJson({ seq, at, actor, via, app, kind, action, target, before, after, prevHash });
  return hex(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(body)));
}

/** What a head's signature covers: the canonical JSON of its seq, hash and time. */
export function headMessage(head: Pick<SignedHead, 'seq' | 'hash' | 'at'>): Uint8Array<ArrayBuffer> {
  return new Uint8Array(new TextEncoder().encode(canonicalJson({ seq: head.seq, hash: head.hash, at: head.at })));
}
