/**
 * The APK file a CLI is given (`npm run apk:reserve`, `npm run apk:upload`), read and checked in one
 * step: a file that cannot be read, or an APK the check refuses, ends the command with the reason
 * (and the `ApkError` or `ManifestError` code, docs/apk-stamping.md) through the command's own `fail`.
 */
import { readFileSync } from 'node:fs';
import { ApkError } from '../../../worker/apk/apk-error.ts';
import { ManifestError } from './manifest.ts';

/** The bytes at `path` and what `check` makes of them. */
export function readApkFile<T>(
  path: string,
  check: (bytes: Uint8Array) => T,
  fail: (message: string) => never,
): { bytes: Uint8Array; checked: T } {
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(path);
  } catch (error) {
    fail(`cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    return { bytes, checked: check(bytes) };
  } catch (error) {
    if (error instanceof ApkError || error instanceof ManifestError) fail(`${path}: ${error.message} (${error.code})`);
    throw error;
  }
}
