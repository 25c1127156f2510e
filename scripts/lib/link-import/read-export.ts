/**
 * Reads an export file as the format it is said to be (`--from`), or as the one format whose shape it
 * has: a file of no known shape, of two shapes at once, or not the format it is said to be is refused
 * whole, with the reason, before anything is stored (docs/operators.md#bring-your-links).
 */
import {
  bitly,
  documentOf,
  type ExportedLink,
  type FormatReader,
  firebase,
  IMPORT_FORMATS,
  type ImportFormat,
} from './formats.ts';
import { dub, shlink, sink } from './shorteners.ts';

export const FORMAT_READERS: Record<ImportFormat, FormatReader> = { firebase, bitly, dub, shlink, sink };

/** The most links one import carries: more is a file to split (each link is two calls to the worker). */
export const MAX_LINKS = 50_000;

export type ExportRead = { ok: true; format: ImportFormat; links: ExportedLink[] } | { ok: false; reason: string };

/** Whether `name` is one of the formats. */
export const isImportFormat = (name: string): name is ImportFormat =>
  (IMPORT_FORMATS as readonly string[]).includes(name);

/** The links of the export `text`, read as `from` or as the one format it looks like. */
export function readExport(text: string, from?: ImportFormat): ExportRead {
  const found = documentOf(text);
  if (!found.ok) return found;
  const { doc } = found;
  let format = from;
  if (format === undefined) {
    const claimed = IMPORT_FORMATS.filter((name) => FORMAT_READERS[name].claims(doc));
    if (claimed.length === 0) {
      return { ok: false, reason: `the file is none of the known exports (${IMPORT_FORMATS.join(', ')})` };
    }
    if (claimed.length > 1) {
      return { ok: false, reason: `the file could be ${claimed.join(' or ')}: say which with --from` };
    }
    format = claimed[0] as ImportFormat;
  }
  const reader = FORMAT_READERS[format];
  if (!reader.claims(doc)) {
    const read = reader.read(doc);
    return { ok: false, reason: `not ${reader.title}: ${read.ok ? 'its shape differs' : read.reason}` };
  }
  const read = reader.read(doc);
  if (!read.ok) return { ok: false, reason: `not ${reader.title}: ${read.reason}` };
  if (read.links.length > MAX_LINKS) {
    return { ok: false, reason: `it has ${read.links.length} links; an import carries at most ${MAX_LINKS}: split it` };
  }
  return { ok: true, format, links: read.links };
}
