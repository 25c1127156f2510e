/**
 * Whether a configuration document may be stored (docs/config.md#changing-it): the schema
 * (validate.ts), then what a page serving mainland China must disclose (mainland-ready.ts), then, for
 * production, the operator's own store ids, package and download origin (production-ready.ts).
 * `npm run config:push` and `PUT /api/config` both ask this one function, so they refuse alike.
 */
import type { LanderConfig } from '../../shared/config/schema.ts';
import { mainlandGaps } from './mainland-ready.ts';
import { productionGaps } from './production-ready.ts';
import { type ConfigProblem, type ConfigResult, validateConfig } from './validate.ts';

/** Why a document is refused: it breaks the schema, or lacks mainland China's or production's facts. */
export type Refusal = 'invalid' | 'mainland' | 'production';

export type StorableResult =
  | { ok: true; config: LanderConfig }
  | { ok: false; refusal: Refusal; problems: ConfigProblem[] };

export interface StorableOptions {
  /** The environment the document is for: production asks for the operator's own app and origin. */
  production: boolean;
  /** The environment's `DOWNLOAD_ORIGIN`. */
  downloadOrigin: string | undefined;
}

/** `parsed` checked as a document to store, with the schema's defaults filled in. */
export function storableFrom(parsed: ConfigResult, { production, downloadOrigin }: StorableOptions): StorableResult {
  if (!parsed.ok) return { ok: false, refusal: 'invalid', problems: parsed.problems };
  const mainland = mainlandGaps(parsed.config);
  if (mainland.length > 0) return { ok: false, refusal: 'mainland', problems: mainland };
  const gaps = production ? productionGaps(parsed.config, downloadOrigin) : [];
  if (gaps.length > 0) return { ok: false, refusal: 'production', problems: gaps };
  return { ok: true, config: parsed.config };
}

/** A parsed JSON value checked as a document to store. */
export const storableConfig = (value: unknown, options: StorableOptions): StorableResult =>
  storableFrom(validateConfig(value), options);
