/**
 * The Android SDK (sdk/android) through `npm run sdk:android`: it compiles with `javac --release 8`,
 * its JUnit suite passes (every conformance case, the APK stamp reader), and the jar it writes holds
 * the SDK's classes only, as Java 8 class files, without the compile-only Android stubs.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { JAR } from '../../scripts/sdk-android.ts';
import { loadCases } from '../fixtures/conformance.ts';

/** The entries of a zip (the jar), by name, inflated. */
function entries(zip: Buffer): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let at = zip.readUInt32LE(eocd + 16);
  for (let i = 0; i < zip.readUInt16LE(eocd + 10); i++) {
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    const local = zip.readUInt32LE(at + 42);
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + size);
    out.set(name, method === 8 ? inflateRawSync(data) : data);
    at += 46 + nameLength + extra;
  }
  return out;
}

describe('npm run sdk:android', () => {
  const run = spawnSync(process.execPath, ['scripts/sdk-android.ts'], { encoding: 'utf8' });
  const output = `${run.stdout}\n${run.stderr}`;

  it('compiles and passes its JUnit suite, every conformance case included', () => {
    expect(run.status, output).toBe(0);
    const tests = Number(/OK \((\d+) tests\)/.exec(run.stdout)?.[1] ?? 0);
    expect(tests, output).toBeGreaterThanOrEqual(loadCases().length);
  });

  it('writes a jar of Java 8 classes without the Android stubs', () => {
    expect(run.stdout).toMatch(/lander-sdk\.jar: \d+ bytes/);
    const classes = [...entries(readFileSync(JAR))].filter(([name]) => name.endsWith('.class'));
    expect(classes.map(([name]) => name)).toContain('io/lander/sdk/Lander.class');
    expect(classes.map(([name]) => name)).toContain('io/lander/sdk/android/AndroidPlatform.class');
    expect(classes.filter(([name]) => !name.startsWith('io/lander/sdk/'))).toEqual([]);
    // The class file's major version: 52 is Java 8.
    expect(new Set(classes.map(([, bytes]) => bytes.readUInt16BE(6)))).toEqual(new Set([52]));
  });
});
