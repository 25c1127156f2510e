/**
 * Where an uploaded parent APK's facts live (docs/apk-stamping.md), written by `npm run apk:upload`
 * and read by the worker:
 * - the R2 object (binding `APK_PARENTS`, key = file name) carries its bytes and, in its custom
 *   metadata, the facts a download needs: the reserved range and the SHA-256. Bytes and range are
 *   one object, so a download never stamps one parent at another's offset.
 * - the KV record `apk:parents` maps an app's package to its parent's facts, for the page: read with
 *   the configuration's caching, so a page render costs no R2 call.
 */
import * as v from 'valibot';
import { APK_FILE_NAME, type ApkParents } from '../../shared/apk-parent.ts';
import { RESERVED_LENGTH, type ReservedRange } from './stamp.ts';

/** The KV key of the page's record. */
export const PARENTS_KEY = 'apk:parents';

const SHA256 = /^[0-9a-f]{64}$/;

const FactsSchema = v.object({
  file: v.pipe(v.string(), v.regex(APK_FILE_NAME)),
  size: v.pipe(v.number(), v.integer(), v.minValue(1)),
  sha256: v.pipe(v.string(), v.regex(SHA256)),
  version: v.pipe(v.string(), v.maxLength(64)),
});

/** The KV record: package → its parent. */
const ParentsSchema = v.record(v.string(), FactsSchema);

export type { ApkParents };

/** No parent uploaded. */
export const NO_PARENTS: ApkParents = Object.freeze({});

/** The record in `text`, or null when it is not one. */
export function parseParents(text: string): ApkParents | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return null;
  }
  const result = v.safeParse(ParentsSchema, json);
  return result.success ? result.output : null;
}

/** What a download reads from the R2 object. */
export interface ParentObjectFacts {
  app: string;
  sha256: string;
  version: string;
  range: ReservedRange;
}

/** The R2 custom metadata of a parent (all values are strings in R2). */
export function parentMetadata(facts: ParentObjectFacts & { size: number }): Record<string, string> {
  return {
    app: facts.app,
    size: String(facts.size),
    sha256: facts.sha256,
    version: facts.version,
    reservedOffset: String(facts.range.offset),
    reservedLength: String(facts.range.length),
  };
}

/** The facts in an R2 object's metadata; null when they are missing or do not fit the object. */
export function readParentMetadata(object: Pick<R2Object, 'size' | 'customMetadata'>): ParentObjectFacts | null {
  const meta = object.customMetadata ?? {};
  const offset = Number(meta.reservedOffset);
  const length = Number(meta.reservedLength);
  const { app = '', sha256 = '', version = '' } = meta;
  if (!SHA256.test(sha256) || Number(meta.size) !== object.size || length !== RESERVED_LENGTH) return null;
  if (!Number.isInteger(offset) || offset < 0 || offset + length > object.size) return null;
  return { app, sha256, version, range: { offset, length } };
}
