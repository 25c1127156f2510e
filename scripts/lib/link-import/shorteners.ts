/**
 * The self-hostable shorteners' exports (docs/operators.md#bring-your-links): Dub's links (its CSV
 * export, or its API's `Link` objects as JSON), Shlink's short URLs (the web client's CSV export, or
 * the REST API's list as JSON) and Sink's export (JSON `{ version, exportedAt, links }`).
 */
import {
  type ExportDocument,
  type ExportedLink,
  type FormatReader,
  hasColumns,
  type ReadResult,
  rowsOf,
  slugOfShortLink,
  splitTags,
  timeOf,
  UTM_PARAMS,
  utmOf,
} from './formats.ts';

type Item = Record<string, unknown>;

const isItem = (value: unknown): value is Item => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** The items of a JSON array whose first item has every one of `keys`; undefined for any other value. */
function itemsWith(value: unknown, ...keys: string[]): unknown[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const [first] = value;
  return isItem(first) && keys.every((key) => key in first) ? value : undefined;
}

/** The UTM parameters among an item's fields. */
function utmOfItem(item: Item): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name of UTM_PARAMS) if (text(item[name]) !== '') params[name] = text(item[name]);
  return params;
}

/** A JSON item that is not an object: a link with nothing to carry, reported as such. */
const notAnObject = (at: string): ExportedLink => ({ at, slug: '', target: '', params: {}, tags: [] });

const DUB_CSV_SLUG = ['key', 'link', 'short_link'];
const dubCsvSlug = (doc: ExportDocument) => DUB_CSV_SLUG.find((name) => hasColumns(doc, name));
const dubJson = (doc: ExportDocument) =>
  doc.kind === 'json' ? itemsWith(doc.value, 'key', 'url', 'domain') : undefined;

function readDubCsv(doc: ExportDocument, column: string): ReadResult {
  if (doc.kind !== 'csv') return { ok: false, reason: 'not CSV' };
  const links = rowsOf(doc.table).map(({ at, cell }) => ({
    at,
    slug: column === 'key' ? cell('key') : slugOfShortLink(cell(column)),
    target: cell('url'),
    params: utmOf(cell),
    tags: splitTags(cell('tags'), /,/),
    expiresAt: timeOf(cell('expiresat') || cell('expires_at')),
  }));
  return { ok: true, links };
}

function dubLink(item: unknown, index: number): ExportedLink {
  const at = `[${index}]`;
  if (!isItem(item)) return notAnObject(at);
  const tags = Array.isArray(item.tags) ? item.tags.map((tag) => (isItem(tag) ? text(tag.name) : text(tag))) : [];
  return {
    at,
    slug: text(item.key),
    target: text(item.url),
    params: utmOfItem(item),
    tags: tags.filter((tag) => tag !== ''),
    expiresAt: timeOf(item.expiresAt),
    ...(text(item.password) !== '' ? { blocked: 'it is password-protected: Lander links have no passwords' } : {}),
  };
}

export const dub: FormatReader = {
  title: "Dub's links",
  claims: (doc) => dubJson(doc) !== undefined || (hasColumns(doc, 'url') && dubCsvSlug(doc) !== undefined),
  read: (doc) => {
    const items = dubJson(doc);
    if (items) return { ok: true, links: items.map(dubLink) };
    const column = dubCsvSlug(doc);
    if (doc.kind === 'csv' && hasColumns(doc, 'url') && column) return readDubCsv(doc, column);
    return {
      ok: false,
      reason: "Dub's links are a JSON array of links with key, url and domain, or a CSV with url and key (or link)",
    };
  },
};

/** Shlink's REST list (`{ shortUrls: { data: […] } }`) or a bare array of its short URLs. */
function shlinkJson(doc: ExportDocument): unknown[] | undefined {
  if (doc.kind !== 'json') return undefined;
  const { value } = doc;
  if (isItem(value) && isItem(value.shortUrls) && Array.isArray(value.shortUrls.data)) return value.shortUrls.data;
  return itemsWith(value, 'shortCode', 'longUrl');
}

function shlinkLink(item: unknown, index: number): ExportedLink {
  const at = `shortUrls[${index}]`;
  if (!isItem(item)) return notAnObject(at);
  const meta = isItem(item.meta) ? item.meta : {};
  return {
    at,
    slug: text(item.shortCode),
    target: text(item.longUrl),
    params: {},
    tags: Array.isArray(item.tags) ? item.tags.map(text).filter((tag) => tag !== '') : [],
    expiresAt: timeOf(meta.validUntil),
  };
}

export const shlink: FormatReader = {
  title: "Shlink's short URLs",
  claims: (doc) => shlinkJson(doc) !== undefined || hasColumns(doc, 'shortcode', 'longurl'),
  read: (doc) => {
    const items = shlinkJson(doc);
    if (items) return { ok: true, links: items.map(shlinkLink) };
    if (doc.kind === 'csv' && hasColumns(doc, 'shortcode', 'longurl')) {
      const links = rowsOf(doc.table).map(({ at, cell }) => ({
        at,
        slug: cell('shortcode'),
        target: cell('longurl'),
        params: {},
        tags: splitTags(cell('tags'), /\|/),
      }));
      return { ok: true, links };
    }
    return {
      ok: false,
      reason:
        "Shlink's short URLs are the REST API's JSON ({ shortUrls: { data } }) or a CSV with shortCode and longUrl",
    };
  },
};

/** Sink's export: `{ version, exportedAt, count, links: [{ slug, url, … }] }`. */
function sinkLinks(doc: ExportDocument): unknown[] | undefined {
  if (doc.kind !== 'json' || !isItem(doc.value)) return undefined;
  const { links, version, exportedAt } = doc.value;
  return Array.isArray(links) && (version !== undefined || exportedAt !== undefined) ? links : undefined;
}

function sinkLink(item: unknown, index: number): ExportedLink {
  const at = `links[${index}]`;
  if (!isItem(item)) return notAnObject(at);
  const expiration = item.expiration;
  return {
    at,
    slug: text(item.slug),
    target: text(item.url),
    params: {},
    tags: [],
    // Sink writes its times in Unix seconds.
    ...(expiration === undefined || expiration === null
      ? {}
      : { expiresAt: typeof expiration === 'number' ? expiration * 1000 : Number.NaN }),
    ...(text(item.password) !== '' ? { blocked: 'it is password-protected: Lander links have no passwords' } : {}),
  };
}

export const sink: FormatReader = {
  title: "Sink's export",
  claims: (doc) => sinkLinks(doc) !== undefined,
  read: (doc) => {
    const items = sinkLinks(doc);
    if (items) return { ok: true, links: items.map(sinkLink) };
    return { ok: false, reason: "Sink's export is JSON with version, exportedAt and a links array" };
  },
};
