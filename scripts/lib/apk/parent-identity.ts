/**
 * Which app and version a parent is uploaded as (docs/apk-stamping.md, "Uploading a parent"): what
 * its manifest says; `--app` and `--version` may repeat it, never contradict it. A flag names the
 * version only where the manifest cannot (no `android:versionName`, or a resource reference that
 * depends on the device's configuration).
 */
import type { ManifestFacts } from './manifest.ts';

/** The flags the operator gave, if any. */
export interface IdentityFlags {
  app?: string | undefined;
  version?: string | undefined;
}

/** The app and version to record, or why not (`needsFlag`: a flag could supply what is missing). */
export type Identity = { app: string; version: string } | { refused: string; needsFlag: boolean };

/** The parent's package and version name, from its manifest checked against the flags. */
export function parentIdentity(manifest: ManifestFacts, flags: IdentityFlags): Identity {
  if (flags.app !== undefined && flags.app !== manifest.package) {
    return {
      refused: `--app ${JSON.stringify(flags.app)} contradicts the APK's package ${JSON.stringify(manifest.package)}`,
      needsFlag: false,
    };
  }
  const name = manifest.versionName;
  if (name.kind === 'text' && name.value !== '') {
    if (flags.version !== undefined && flags.version !== name.value) {
      return {
        refused: `--version ${JSON.stringify(flags.version)} contradicts the APK's versionName ${JSON.stringify(name.value)}`,
        needsFlag: false,
      };
    }
    return { app: manifest.package, version: name.value };
  }
  if (flags.version !== undefined) return { app: manifest.package, version: flags.version };
  const why =
    name.kind === 'text'
      ? 'android:versionName is empty'
      : name.kind === 'missing'
        ? 'the manifest has no android:versionName'
        : name.kind === 'reference'
          ? `android:versionName is a resource reference (@0x${name.id.toString(16).padStart(8, '0')}), not text`
          : `android:versionName is not text (value type 0x${name.type.toString(16)})`;
  return { refused: `${why}: give the version with --version`, needsFlag: true };
}
