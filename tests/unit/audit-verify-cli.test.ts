/**
 * `npm run audit:verify` as an operator runs it (docs/operators.md#audit-log): an intact export and
 * its signed head exit 0; an altered entry exits 1 naming it; a head altered after signing exits 1;
 * a file that is not an export exits 2 naming the line, in one line, never a stack trace.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { TOOL_ENV } from '../../scripts/lib/run.ts';
import { toBase64Url } from '../../shared/base64url.ts';
import { type AuditEntry, entryHash, GENESIS, headMessage, redactedOf } from '../../worker/audit/chain.ts';

const dir = mkdtempSync(join(tmpdir(), 'audit-verify-'));
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const ndjson = (entries: object[]) => `${entries.map((entry) => JSON.stringify(entry)).join('\n')}\n`;

function verify(...args: string[]) {
  const result = spawnSync(process.execPath, ['scripts/audit-verify.ts', ...args], { env: TOOL_ENV, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Three entries chained as the worker appends them, and the head of the last signed by a fresh key. */
async function signedLog() {
  const entries: AuditEntry[] = [];
  let prevHash = GENESIS;
  for (const seq of [1, 2, 3]) {
    const body = {
      seq,
      at: 1_764_000_000_000 + seq,
      actor: 'token',
      via: 'token',
      app: 'default',
      kind: 'link',
      action: 'created',
      target: `s${seq}`,
      before: null,
      after: { slug: `s${seq}` },
      prevHash,
    };
    const hash = await entryHash(body);
    entries.push({ ...body, hash });
    prevHash = hash;
  }
  const pair = (await crypto.subtle.generateKey({ name: 'Ed25519' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const { x } = (await crypto.subtle.exportKey('jwk', pair.publicKey)) as JsonWebKey;
  const last = entries[2] as AuditEntry;
  const body = { seq: 3, hash: last.hash, at: 1_764_100_000_000 };
  const signature = toBase64Url(
    new Uint8Array(await crypto.subtle.sign('Ed25519', pair.privateKey, headMessage(body))),
  );
  return { entries, head: { ...body, signature, publicKey: x as string }, x: x as string };
}

let log: Awaited<ReturnType<typeof signedLog>>;
beforeAll(async () => {
  log = await signedLog();
});

describe('npm run audit:verify', () => {
  it('exits 0 for an intact export that reaches its signed head', () => {
    const result = verify(
      file('ok.ndjson', ndjson(log.entries)),
      '--head',
      file('head.json', JSON.stringify(log.head)),
      '--public-key',
      log.x,
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Intact: 3 entries');
  });

  it('exits 0 for an app’s export, another app’s entry redacted to its hashes, and says so', () => {
    const redacted = log.entries.map((entry) => (entry.seq === 2 ? redactedOf(entry) : entry));
    const head = file('head.json', JSON.stringify(log.head));
    const result = verify(file('app.ndjson', ndjson(redacted)), '--head', head, '--public-key', log.x);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Intact: 3 entries');
    expect(result.stdout).toContain('1 of other apps redacted, their hashes taken as given');
    // A redacted line holds its seq and hashes only: one with more is not the export's.
    const padded = log.entries.map((entry) => (entry.seq === 2 ? { ...redactedOf(entry), actor: 'x' } : entry));
    const bad = verify(file('padded.ndjson', ndjson(padded)));
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim()).toBe('npm run audit:verify: line 2: a redacted entry has no actor');
  });

  it('exits 1 naming the first entry altered, or removed before the head', () => {
    const altered = log.entries.map((entry) => (entry.seq === 2 ? { ...entry, actor: 'mallory' } : entry));
    const head = file('head.json', JSON.stringify(log.head));
    const one = verify(file('altered.ndjson', ndjson(altered)), '--head', head, '--public-key', log.x);
    expect(one.status).toBe(1);
    expect(one.stderr).toMatch(/^Entry 2: altered/);
    const cut = verify(file('cut.ndjson', ndjson(log.entries.slice(0, 2))), '--head', head, '--public-key', log.x);
    expect(cut.status).toBe(1);
    expect(cut.stderr).toMatch(/^Entry 3: missing/);
  });

  it('exits 1 for a head whose signature does not verify (altered after signing)', () => {
    const forged = { ...log.head, seq: 2, hash: (log.entries[1] as AuditEntry).hash };
    const result = verify(
      file('ok.ndjson', ndjson(log.entries)),
      '--head',
      file('forged.json', JSON.stringify(forged)),
      '--public-key',
      log.x,
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/does not verify/);
  });

  it('exits 2 naming the line of a file that is not an export, in one line', () => {
    const result = verify(file('bad.ndjson', `${JSON.stringify(log.entries[0])}\nnot json\n`));
    expect(result.status).toBe(2);
    expect(result.stderr.trim()).toBe('npm run audit:verify: line 2: not JSON');
  });
});
