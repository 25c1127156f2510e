/**
 * Stamped APKs' contract (docs/apk-stamping.md): what the page knows of an uploaded parent APK, and
 * where its stamped copies are served. The worker reads the parent's facts from one KV record
 * (`npm run apk:upload` writes it); the page links to `/dl/<carrier>/<file>`.
 */

/** The stamped download's path prefix: `/dl/<carrier>/<file>.apk`. */
export const STAMPED_PATH = '/dl/';

/** A parent's file name: what the download is saved as, and its R2 key. */
export const APK_FILE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.apk$/;

/** What the page and `/test` show of the parent uploaded for an app. */
export interface ApkParentFacts {
  /** The file name: the R2 key and the last segment of the stamped path. */
  file: string;
  /** Bytes; every stamped copy has the same length. */
  size: number;
  /** SHA-256 of the parent, lowercase hex. */
  sha256: string;
  /** The app's versionName, as given at upload. */
  version: string;
}

/** The uploaded parents by package (worker/apk/parents.ts reads and writes them). */
export type ApkParents = Readonly<Record<string, ApkParentFacts>>;

/** `https://<page host>/dl/<carrier slot or carrier>/<file>`. */
export function stampedUrl(origin: string, carrier: string, file: string): string {
  return `${origin}${STAMPED_PATH}${carrier}/${file}`;
}
