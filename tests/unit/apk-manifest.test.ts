/**
 * Reading the package and versionName from an APK's binary AndroidManifest.xml
 * (scripts/lib/apk/manifest.ts, binary-xml.ts, zip-entry.ts; docs/apk-stamping.md): real APKs that
 * aapt compiled, and documents of the test writer (tests/fixtures/axml.ts) for what aapt does not
 * make — checked first against aapt's own reading.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ManifestError, manifestFacts, readManifest } from '../../scripts/lib/apk/manifest.ts';
import { readApk } from '../../scripts/lib/apk/signing-block.ts';
import { aapt, aaptApk, dumpManifest, manifestText } from '../fixtures/aapt.ts';
import { apkErrorCode, signApk, zipOf } from '../fixtures/apk.ts';
import { ANDROID_NS, axml, manifestAxml, VERSION_NAME_ID } from '../fixtures/axml.ts';

function facts(apk: Uint8Array) {
  return readManifest(apk, readApk(apk));
}

/** The `ManifestError` code `run` throws; any other outcome fails the test. */
function manifestErrorCode(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof ManifestError) return error.code;
    throw error;
  }
  throw new Error('no error thrown');
}

/** aapt's `package:` line for an APK: what Android's tools read as its name and version. */
function badging(apk: Uint8Array): { name: string; versionName: string | undefined } {
  const dir = mkdtempSync(join(tmpdir(), 'lander-badging-'));
  writeFileSync(join(dir, 'app.apk'), apk);
  const line = aapt(['dump', 'badging', join(dir, 'app.apk')]).stdout.split('\n')[0] ?? '';
  rmSync(dir, { recursive: true, force: true });
  return { name: /name='([^']*)'/.exec(line)?.[1] ?? '', versionName: /versionName='([^']*)'/.exec(line)?.[1] };
}

describe('a real APK compiled by aapt', { timeout: 30_000 }, () => {
  it('reads the package and versionName that aapt reports', () => {
    const apk = aaptApk(
      manifestText('package="com.pebble.notes" android:versionCode="24" android:versionName="2.4.0"'),
    );
    expect(badging(apk)).toEqual({ name: 'com.pebble.notes', versionName: '2.4.0' });
    expect(facts(apk)).toEqual({ package: 'com.pebble.notes', versionName: { kind: 'text', value: '2.4.0' } });
  });

  it('reads a versionName outside ASCII from aapt’s UTF-16 pool', () => {
    const apk = aaptApk(manifestText('package="com.pebble.notes" android:versionName="2.4 “Ölfarbe” 版"'));
    expect(facts(apk).versionName).toEqual({ kind: 'text', value: '2.4 “Ölfarbe” 版' });
  });

  it('says a versionName that is a resource reference is one, with its id', () => {
    const apk = aaptApk(manifestText('package="com.pebble.notes" android:versionName="@string/version"'), {
      version: '3.0',
    });
    const id = /versionName\(0x0101021c\)=@0x([0-9a-f]{8})/.exec(dumpManifest(apk))?.[1];
    expect(id).toBeDefined();
    expect(facts(apk).versionName).toEqual({ kind: 'reference', id: Number.parseInt(id ?? '', 16) });
  });

  it('says a manifest without versionName has none', () => {
    const apk = aaptApk(manifestText('package="com.pebble.notes" android:versionCode="3"'));
    expect(facts(apk)).toEqual({ package: 'com.pebble.notes', versionName: { kind: 'missing' } });
  });
});

describe('the test writer', { timeout: 30_000 }, () => {
  it.each([false, true])('writes documents aapt reads as it reads its own (UTF-8 pool: %s)', (utf8) => {
    const apk = signApk(
      zipOf({ 'AndroidManifest.xml': manifestAxml({ pkg: 'com.pebble.notes', versionName: '2.4.0 ß 版', utf8 }) }),
    );
    const dump = dumpManifest(apk);
    expect(dump).toContain('A: android:versionName(0x0101021c)="2.4.0 ß 版" (Raw: "2.4.0 ß 版")');
    expect(dump).toContain('A: package="com.pebble.notes" (Raw: "com.pebble.notes")');
    expect(badging(apk)).toEqual({ name: 'com.pebble.notes', versionName: '2.4.0 ß 版' });
  });
});

describe('string pools', () => {
  it.each([false, true])('reads UTF-8 and UTF-16 pools alike (UTF-8: %s)', (utf8) => {
    const xml = manifestAxml({ pkg: 'com.pebble.notes', versionName: 'ẞeta 2 🚀', utf8 });
    expect(manifestFacts(xml)).toEqual({
      package: 'com.pebble.notes',
      versionName: { kind: 'text', value: 'ẞeta 2 🚀' },
    });
  });

  it('reads lengths written in two bytes (UTF-8, over 127) and two units (UTF-16, over 32,767)', () => {
    const long8 = `2.${'é'.repeat(200)}`;
    expect(manifestFacts(manifestAxml({ pkg: 'a.b', versionName: long8, utf8: true })).versionName).toEqual({
      kind: 'text',
      value: long8,
    });
    const long16 = `2.${'x'.repeat(40_000)}`;
    expect(manifestFacts(manifestAxml({ pkg: 'a.b', versionName: long16 })).versionName).toEqual({
      kind: 'text',
      value: long16,
    });
  });
});

describe('the manifest’s attributes', () => {
  it('refuses a manifest without package (no-package)', () => {
    expect(manifestErrorCode(() => manifestFacts(manifestAxml({ versionName: '1.0' })))).toBe('no-package');
  });

  it('says versionName is missing, a reference, or of another type without text', () => {
    expect(manifestFacts(manifestAxml({ pkg: 'a.b' })).versionName).toEqual({ kind: 'missing' });
    expect(manifestFacts(manifestAxml({ pkg: 'a.b', versionName: { reference: 0x7f0b0001 } })).versionName).toEqual({
      kind: 'reference',
      id: 0x7f0b0001,
    });
    const integer = axml({
      element: 'manifest',
      attributes: [
        { name: 'package', value: 'a.b' },
        {
          namespace: ANDROID_NS,
          name: 'versionName',
          resourceId: VERSION_NAME_ID,
          value: { type: 0x10, data: 7 },
          raw: null,
        },
      ],
    });
    expect(manifestFacts(integer).versionName).toEqual({ kind: 'other', type: 0x10 });
  });

  it('finds versionName by its resource id, and by its name only where there is no resource map entry', () => {
    const byName = axml({
      element: 'manifest',
      attributes: [
        { name: 'package', value: 'a.b' },
        { namespace: ANDROID_NS, name: 'versionName', value: '5.1' },
      ],
    });
    expect(manifestFacts(byName).versionName).toEqual({ kind: 'text', value: '5.1' });
    // An attribute spelled versionName whose id is another attribute's is not the version.
    const renamed = axml({
      element: 'manifest',
      attributes: [
        { name: 'package', value: 'a.b' },
        { namespace: ANDROID_NS, name: 'versionName', resourceId: 0x0101021b, value: '6' },
      ],
    });
    expect(manifestFacts(renamed).versionName).toEqual({ kind: 'missing' });
  });

  it('refuses a document whose root is not <manifest> (bad-manifest)', () => {
    const other = axml({ element: 'application', attributes: [{ name: 'package', value: 'a.b' }] });
    expect(manifestErrorCode(() => manifestFacts(other))).toBe('bad-manifest');
  });
});

describe('broken input: a clear refusal, never a crash', () => {
  const good = manifestAxml({ pkg: 'com.pebble.notes', versionName: '2.4.0' });

  it('refuses text XML and empty bytes (bad-manifest)', () => {
    expect(manifestErrorCode(() => manifestFacts(new TextEncoder().encode('<manifest package="a.b"/>')))).toBe(
      'bad-manifest',
    );
    expect(manifestErrorCode(() => manifestFacts(new Uint8Array(0)))).toBe('bad-manifest');
  });

  it('refuses every truncation of a manifest (bad-manifest)', () => {
    for (let length = 0; length < good.length; length++) {
      expect(
        manifestErrorCode(() => manifestFacts(good.slice(0, length))),
        `length ${length}`,
      ).toBe('bad-manifest');
    }
  });

  it('refuses a chunk of size 0 inside the document instead of looping on it', () => {
    const broken = good.slice();
    // The string pool's chunk starts after the document's 8-byte header; its size field at 12.
    new DataView(broken.buffer).setUint32(12, 0, true);
    expect(manifestErrorCode(() => manifestFacts(broken))).toBe('bad-manifest');
  });

  it('answers every single-byte corruption with the facts or a ManifestError', () => {
    for (let at = 0; at < good.length; at++) {
      for (const value of [0x00, 0x7f, 0x80, 0xff]) {
        const broken = good.slice();
        broken[at] = value;
        try {
          const read = manifestFacts(broken);
          expect(typeof read.package).toBe('string');
        } catch (error) {
          expect(error, `byte ${at} = ${value}: ${String(error)}`).toBeInstanceOf(ManifestError);
        }
      }
    }
  });

  it('refuses an APK without AndroidManifest.xml (no-manifest)', () => {
    const apk = signApk(zipOf({ 'classes.dex': 'dex' }));
    expect(manifestErrorCode(() => readManifest(apk, readApk(apk)))).toBe('no-manifest');
  });
});

describe('the manifest’s zip entry', () => {
  /** A zip whose manifest entry's method (in the central directory) is `method`. */
  function withMethod(method: number): Uint8Array {
    const zip = zipOf({ 'AndroidManifest.xml': manifestAxml({ pkg: 'a.b', versionName: '1' }) });
    const layout = readZipLayout(zip);
    new DataView(zip.buffer).setUint16(layout.centralDirectoryOffset + 10, method, true);
    return zip;
  }

  /** Where zipOf put its central directory: from its End of Central Directory (no comment). */
  function readZipLayout(zip: Uint8Array) {
    const view = new DataView(zip.buffer);
    const eocd = zip.length - 22;
    return {
      centralDirectoryOffset: view.getUint32(eocd + 16, true),
      centralDirectorySize: view.getUint32(eocd + 12, true),
    };
  }

  it('reads a stored manifest', () => {
    const zip = withMethod(0);
    expect(readManifest(zip, readZipLayout(zip))).toEqual({
      package: 'a.b',
      versionName: { kind: 'text', value: '1' },
    });
  });

  it('refuses a manifest that does not inflate, or another compression method (malformed)', () => {
    for (const method of [8, 12]) {
      const zip = withMethod(method);
      expect(
        apkErrorCode(() => readManifest(zip, readZipLayout(zip))),
        `method ${method}`,
      ).toBe('malformed');
    }
  });
});
