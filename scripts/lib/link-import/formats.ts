/**
 * The link exports `npm run import` reads (docs/operators.md#bring-your-links), each as its own
 * documentation describes it: a Firebase Dynamic Links export (CSV), a Bitly CSV, Dub's links (CSV
 * export or the API's JSON), Shlink's short URLs (the web client's CSV or the REST API's JSON) and
 * Sink's export (JSON). Each reader says whether a file has its shape (`claims`) and turns it into
 * links as the export names them; Lander's own rules are applied afterwards (carry.ts).
 */
import { type CsvTable, parseCsv } from './csv.ts';

export const IMPORT_FORMATS = ['firebase', 'bitly', 'dub', 'shlink', 'sink'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** One link as its export gives it. */
export interface ExportedLink {
  /** Where it is in the file: `line 4`, `links[2]`. */
  at: string;
  /** Its slug (back-half, key, short code), as written; '' when the export names none. */
  slug: string;
  /** Where it leads (destination, long URL, deep link), as written. */
  target: string;
  /** The campaign parameters it names (`utm_*`), as written. */
  params: Record<string, string>;
  tags: string[];
  /** When it stops working (epoch ms); absent when never. */
  expiresAt?: number;
  /** What the export says that Lander cannot keep (a password), making the link one not to carry. */
  blocked?: string;
}

/** A file read as CSV or as JSON. */
export type ExportDocument = { kind: 'csv'; table: CsvTable } | { kind: 'json'; value: unknown };

export type ReadResult = { ok: true; links: ExportedLink[] } | { ok: false; reason: string };

export interface FormatReader {
  /** How the refusal names the format. */
  title: string;
  claims(doc: ExportDocument): boolean;
  read(doc: ExportDocument): ReadResult;
}

/** The UTM parameters every format may carry. */
export const UTM_PARAMS = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'] as const;

/** A CSV header name as the readers look it up: `Deep link (link)` → `link`, `Short link` → `short_link`. */
export function columnName(name: string): string {
  const inParens = /\(([^()]+)\)\s*$/.exec(name);
  const base = inParens?.[1] ?? name;
  return base
    .trim()
    .toLowerCase()
    .replace(/\?/g, '')
    .replace(/[\s-]+/g, '_');
}

/** The table's rows as records of `columnName` → cell. */
export function rowsOf(table: CsvTable): { at: string; cell: (name: string) => string }[] {
  const names = table.header.map(columnName);
  return table.rows.map((row) => ({
    at: `line ${row.line}`,
    cell: (name: string) => {
      const index = names.indexOf(name);
      return index === -1 ? '' : (row.cells[index] ?? '').trim();
    },
  }));
}

export const hasColumns = (doc: ExportDocument, ...names: string[]): boolean =>
  doc.kind === 'csv' && names.every((name) => doc.table.header.map(columnName).includes(name));

/** The path of a short link (`https://bit.ly/abc`, `bit.ly/abc`) without its leading slash. */
export function slugOfShortLink(link: string): string {
  if (link === '') return '';
  const absolute = /^[a-z][a-z0-9+.-]*:\/\//i.test(link) ? link : `https://${link}`;
  if (!URL.canParse(absolute)) return link;
  return new URL(absolute).pathname.replace(/^\//, '').replace(/\/$/, '');
}

/** The UTM parameters among `cell`'s columns. */
export function utmOf(cell: (name: string) => string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name of UTM_PARAMS) if (cell(name) !== '') params[name] = cell(name);
  return params;
}

export const splitTags = (text: string, separator: RegExp): string[] =>
  text
    .split(separator)
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');

/** An ISO time as epoch ms; undefined for '' or null, NaN for a time that cannot be read. */
export function timeOf(text: unknown): number | undefined {
  if (text === '' || text === null || text === undefined) return undefined;
  return typeof text === 'string' ? Date.parse(text) : Number.NaN;
}

export const firebase: FormatReader = {
  title: 'a Firebase Dynamic Links export',
  claims: (doc) => hasColumns(doc, 'short_link', 'link'),
  read: (doc) => {
    if (doc.kind !== 'csv' || !hasColumns(doc, 'short_link', 'link')) {
      return { ok: false, reason: 'a Firebase Dynamic Links export is a CSV with "Short link" and "link" columns' };
    }
    const links = rowsOf(doc.table).map(({ at, cell }) => ({
      at,
      slug: slugOfShortLink(cell('short_link')),
      target: cell('link'),
      params: utmOf(cell),
      tags: [],
    }));
    return { ok: true, links };
  },
};

const bitlyLinkColumn = (doc: ExportDocument): string | undefined =>
  ['link', 'bitlink', 'id'].find((name) => hasColumns(doc, name));

export const bitly: FormatReader = {
  title: 'a Bitly CSV',
  claims: (doc) => hasColumns(doc, 'long_url') && bitlyLinkColumn(doc) !== undefined,
  read: (doc) => {
    const column = bitlyLinkColumn(doc);
    if (doc.kind !== 'csv' || !hasColumns(doc, 'long_url') || column === undefined) {
      return { ok: false, reason: 'a Bitly CSV has a "long_url" column and a "link" (or "id") column' };
    }
    const links = rowsOf(doc.table).map(({ at, cell }) => ({
      at,
      // A custom back-half is the link people were given; the generated one only when there is none.
      slug: slugOfShortLink(splitTags(cell('custom_bitlinks'), /[,|\s]/)[0] ?? cell(column)),
      target: cell('long_url'),
      params: {},
      tags: splitTags(cell('tags'), /[,|]/),
    }));
    return { ok: true, links };
  },
};

/** A file's text as a document: JSON when it starts like JSON, else CSV; a reason when it is neither. */
export function documentOf(text: string): { ok: true; doc: ExportDocument } | { ok: false; reason: string } {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return { ok: true, doc: { kind: 'json', value: JSON.parse(trimmed) } };
    } catch (error) {
      return { ok: false, reason: `not valid JSON (${error instanceof Error ? error.message : String(error)})` };
    }
  }
  const csv = parseCsv(text);
  return csv.ok
    ? { ok: true, doc: { kind: 'csv', table: csv.table } }
    : { ok: false, reason: `not valid CSV: ${csv.reason}` };
}
