/**
 * `npm run privacy:verify` (docs/privacy.md#requests-erasure-and-access): a receipt signed with the
 * key verifies (exit 0, its lines listed); one changed after signing, or checked with another key,
 * does not (exit 1); a file that holds no receipt is refused (exit 2).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { signReceipt } from '../../worker/privacy/receipt.ts';
import { SECRETS } from '../../worker/settings.ts';

const run = (...args: string[]) => spawnSync('node', ['scripts/privacy-verify.ts', ...args], { encoding: 'utf8' });

describe('npm run privacy:verify', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'receipt-'));
  const receipt = await signReceipt(SECRETS.PRIVACY_RECEIPT_KEY.dev, {
    subject_request_id: '6a2f41a3-c54c-fce8-32d2-0324e1c32e22',
    subject_request_type: 'erasure',
    app: 'default',
    identity_type: 'install_id',
    subject_digest: 'ab'.repeat(32),
    received_time: '2026-01-05T10:00:00.000Z',
    completed_time: '2026-01-05T10:00:03.000Z',
    lines: [{ store: 'd1', where: 'fraud_installs', count: 1 }],
    kept: [],
  });
  const file = (name: string, value: unknown) => {
    const path = join(dir, name);
    writeFileSync(path, JSON.stringify(value));
    return path;
  };
  const key = JSON.parse(SECRETS.PRIVACY_RECEIPT_KEY.dev) as { x: string };

  it('verifies a receipt with its public key and lists what was removed', () => {
    const result = run(file('good.json', { request_status: 'completed', receipt }), '--public-key', key.x);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('d1 fraud_installs: 1');
  });

  it('fails a receipt changed after signing, or checked with another key', () => {
    const changed = { ...receipt, receipt: { ...receipt.receipt, lines: [] } };
    expect(run(file('changed.json', changed), '--public-key', key.x).status).toBe(1);
    const other = JSON.parse(SECRETS.AUDIT_SIGNING_KEY.dev) as { x: string };
    expect(run(file('good2.json', receipt), '--public-key', other.x).status).toBe(1);
  });

  it('refuses a file that holds no receipt', () => {
    expect(run(file('none.json', { hello: 1 }), '--public-key', key.x).status).toBe(2);
  });
});
