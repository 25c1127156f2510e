/** `npm run apk:reserve -- IN.apk OUT.apk` (scripts/apk-reserve.ts, docs/apk-stamping.md). */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { locateReserved } from '../../scripts/lib/apk/reserve.ts';
import { readApk } from '../../scripts/lib/apk/signing-block.ts';
import { TOOL_ENV } from '../../scripts/lib/run.ts';
import { craftedApk, zipOf } from '../fixtures/apk.ts';

const dir = mkdtempSync(join(tmpdir(), 'lander-apk-reserve-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function reserve(...args: string[]) {
  return spawnSync(process.execPath, ['scripts/apk-reserve.ts', ...args], { encoding: 'utf8', env: TOOL_ENV });
}

/** Runs the CLI on `bytes` in a fresh folder; returns its result and the folder's files after. */
function reserveBytes(bytes: Uint8Array) {
  const folder = mkdtempSync(join(dir, 'run-'));
  writeFileSync(join(folder, 'in.apk'), bytes);
  const result = reserve(join(folder, 'in.apk'), join(folder, 'out.apk'));
  return { ...result, folder, files: readdirSync(folder).sort() };
}

describe('apk:reserve', () => {
  it('writes the reserved APK and prints where the reserved value is', () => {
    const run = reserveBytes(craftedApk());
    expect(run.status).toBe(0);
    const out = new Uint8Array(readFileSync(join(run.folder, 'out.apk')));
    const range = locateReserved(out);
    expect(run.stdout).toContain(`reserved value at offset ${range.offset} (1024 bytes)`);
    expect(readApk(out).block.size).toBe(4096);
    expect(run.files).toEqual(['in.apk', 'out.apk']);
  });

  it('refuses an unsigned or v1-only zip with exit 2, a reason and no output file', () => {
    const run = reserveBytes(zipOf({ 'AndroidManifest.xml': 'x', 'META-INF/CERT.RSA': 'v1' }));
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('signed with v1 (JAR) only (unsigned)');
    expect(run.files).toEqual(['in.apk']);
  });

  it('refuses a file that is not a zip with exit 2 and no output file', () => {
    const run = reserveBytes(new TextEncoder().encode('not an apk'));
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('not a zip file: no End of Central Directory record (not-zip)');
    expect(run.files).toEqual(['in.apk']);
  });

  it('refuses a zip64 archive with exit 2 and no output file', () => {
    const apk = craftedApk();
    new DataView(apk.buffer).setUint32(apk.length - 22 + 16, 0xffffffff, true);
    const run = reserveBytes(apk);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('zip64 archives are not supported');
    expect(run.files).toEqual(['in.apk']);
  });

  it('refuses a malformed signing block with exit 2 and leaves an existing output file as it was', () => {
    const apk = craftedApk();
    const { block } = readApk(apk);
    new DataView(apk.buffer).setUint32(block.offset, 1, true);
    const folder = mkdtempSync(join(dir, 'run-'));
    writeFileSync(join(folder, 'in.apk'), apk);
    writeFileSync(join(folder, 'out.apk'), 'previous');
    const run = reserve(join(folder, 'in.apk'), join(folder, 'out.apk'));
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('two size fields differ (malformed)');
    expect(readFileSync(join(folder, 'out.apk'), 'utf8')).toBe('previous');
  });

  it('refuses a missing input file with exit 2', () => {
    const run = reserve(join(dir, 'absent.apk'), join(dir, 'absent-out.apk'));
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`cannot read ${join(dir, 'absent.apk')}`);
    expect(existsSync(join(dir, 'absent-out.apk'))).toBe(false);
  });

  it('reports an output it cannot write with exit 2, leaving no partial file', () => {
    const folder = mkdtempSync(join(dir, 'run-'));
    writeFileSync(join(folder, 'in.apk'), craftedApk());
    const run = reserve(join(folder, 'in.apk'), join(folder, 'missing', 'out.apk'));
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(`cannot write ${join(folder, 'missing', 'out.apk')}`);
    expect(readdirSync(folder)).toEqual(['in.apk']);
  });

  it('prints its usage and exits 2 without two file names', () => {
    const run = reserve('only-one.apk');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain('usage: npm run apk:reserve -- IN.apk OUT.apk');
  });
});
