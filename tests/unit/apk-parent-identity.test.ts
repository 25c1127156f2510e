/** Which app and version a parent is uploaded as (scripts/lib/apk/parent-identity.ts, docs/apk-stamping.md). */
import { describe, expect, it } from 'vitest';
import type { ManifestFacts } from '../../scripts/lib/apk/manifest.ts';
import { parentIdentity } from '../../scripts/lib/apk/parent-identity.ts';

const notes: ManifestFacts = { package: 'com.pebble.notes', versionName: { kind: 'text', value: '2.4.0' } };

describe('parentIdentity', () => {
  it('takes the package and version from the manifest without flags', () => {
    expect(parentIdentity(notes, {})).toEqual({ app: 'com.pebble.notes', version: '2.4.0' });
  });

  it('accepts flags that repeat the manifest', () => {
    expect(parentIdentity(notes, { app: 'com.pebble.notes', version: '2.4.0' })).toEqual({
      app: 'com.pebble.notes',
      version: '2.4.0',
    });
  });

  it('refuses an --app that contradicts the package, naming both', () => {
    const result = parentIdentity(notes, { app: 'com.pebble.other' });
    expect(result).toEqual({ refused: expect.any(String), needsFlag: false });
    expect(JSON.stringify(result)).toContain('com.pebble.other');
    expect(JSON.stringify(result)).toContain('com.pebble.notes');
  });

  it('refuses a --version that contradicts the versionName, naming both', () => {
    const result = parentIdentity(notes, { version: '2.5.0' });
    expect(result).toEqual({ refused: expect.stringContaining('2.5.0'), needsFlag: false });
    expect(result).toEqual({ refused: expect.stringContaining('2.4.0'), needsFlag: false });
  });

  it.each([
    [{ kind: 'missing' } as const, 'no android:versionName'],
    [{ kind: 'text', value: '' } as const, 'android:versionName is empty'],
    [{ kind: 'reference', id: 0x7f0b0001 } as const, '@0x7f0b0001'],
    [{ kind: 'other', type: 0x10 } as const, 'type 0x10'],
  ])('asks for --version where the manifest has no text version (%o)', (versionName, why) => {
    const manifest: ManifestFacts = { package: 'com.pebble.notes', versionName };
    expect(parentIdentity(manifest, {})).toEqual({ refused: expect.stringContaining(why), needsFlag: true });
    expect(parentIdentity(manifest, { version: '3.0' })).toEqual({ app: 'com.pebble.notes', version: '3.0' });
  });
});
