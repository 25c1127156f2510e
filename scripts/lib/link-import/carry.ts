/**
 * What Lander can carry of an exported link (docs/operators.md#bring-your-links): its slug kept as it
 * is when Lander's slug rule takes it (never renamed), its target as the campaign field `link`, its
 * UTM parameters as fields of the same names (those the export names, else those of the target's
 * query), `utm_source` as the `channel`, its tags as `tags`, its expiry. Every link it cannot carry
 * gets the reason.
 */
import * as v from 'valibot';
import { SLUG_PATTERN } from '../../../shared/admin-contract.ts';
import { PayloadSchema, QUERY_LIMITS } from '../../../worker/campaign/query-data.ts';
import { type ExportedLink, UTM_PARAMS } from './formats.ts';

/** The body of `POST /api/links` for one carried link. */
export interface LinkBody {
  slug: string;
  channel?: string;
  data: Record<string, string>;
  expiresAt?: string;
}

export type Carried =
  | { ok: true; at: string; body: LinkBody }
  | { ok: false; at: string; slug: string; reason: string };

export interface CarryOptions {
  /** Hosts a target may have; empty: any. */
  allowHosts: readonly string[];
  now: number;
}

const SLUG = new RegExp(`^${SLUG_PATTERN}$`);
const MAX_FIELD = QUERY_LIMITS.maxValueLength;

/** Why Lander's slug rule refuses `slug`, or undefined when it takes it. */
export function slugRefusal(slug: string): string | undefined {
  if (slug === '') return 'the export names no slug';
  if (SLUG.test(slug)) return undefined;
  if (slug.includes('/')) return 'the slug has a path (/): Lander slugs are one segment';
  if (/[A-Z]/.test(slug) && SLUG.test(slug.toLowerCase())) {
    return 'the slug has capital letters: Lander slugs are lowercase (a-z, 0-9, -), and it is never renamed';
  }
  if (slug.length < 3 || slug.length > 48) return `the slug is ${slug.length} characters: Lander slugs are 3 to 48`;
  return 'the slug has characters Lander slugs do not take (they are a-z, 0-9 and -)';
}

/** Why Lander cannot carry the target `text`, or undefined when it can. */
export function targetRefusal(text: string, allowHosts: readonly string[]): string | undefined {
  if (text === '') return 'the export names no target';
  if (!URL.canParse(text)) return 'the target is not a URL';
  const url = new URL(text);
  if (url.protocol !== 'https:') return `the target is ${url.protocol} and Lander carries only https targets`;
  if (url.username !== '' || url.password !== '') return 'the target carries a user name or password';
  if (allowHosts.length > 0 && !allowHosts.includes(url.hostname)) {
    return `the target's host ${url.hostname} is not one --allow-host names`;
  }
  if (text.length > MAX_FIELD)
    return `the target is ${text.length} characters; a campaign field holds at most ${MAX_FIELD}`;
  return undefined;
}

/** The UTM parameters the export names, else those in the target's query. */
function utmOf(link: ExportedLink): Record<string, string> {
  if (Object.keys(link.params).length > 0) return link.params;
  const query = new URL(link.target).searchParams;
  const params: Record<string, string> = {};
  for (const name of UTM_PARAMS) {
    const value = query.get(name);
    if (value) params[name] = value;
  }
  return params;
}

/** Why the export's expiry cannot be carried, or undefined. */
function expiryRefusal(expiresAt: number | undefined, now: number): string | undefined {
  if (expiresAt === undefined) return undefined;
  if (Number.isNaN(expiresAt)) return 'its expiry cannot be read';
  if (expiresAt <= now) return `it expired on ${new Date(expiresAt).toISOString()}`;
  return undefined;
}

/** The link's campaign fields, or why they break the token's rules. */
function dataOf(link: ExportedLink): { data: Record<string, string> } | { reason: string } {
  const data: Record<string, string> = { link: link.target, ...utmOf(link) };
  if (link.tags.length > 0) data.tags = link.tags.join(',');
  if (data.utm_source !== undefined) data.channel = data.utm_source;
  const checked = v.safeParse(PayloadSchema, data);
  if (!checked.success)
    return { reason: `its campaign fields break the token's rules: ${v.summarize(checked.issues)}` };
  return { data };
}

/** The link `POST /api/links` would store for `link`, or why it cannot be carried. */
export function carryLink(link: ExportedLink, { allowHosts, now }: CarryOptions): Carried {
  const refused = (reason: string): Carried => ({ ok: false, at: link.at, slug: link.slug, reason });
  const why =
    link.blocked ??
    slugRefusal(link.slug) ??
    targetRefusal(link.target, allowHosts) ??
    expiryRefusal(link.expiresAt, now);
  if (why !== undefined) return refused(why);
  const fields = dataOf(link);
  if ('reason' in fields) return refused(fields.reason);
  const { channel, ...data } = fields.data;
  const body: LinkBody = { slug: link.slug, data, ...(channel !== undefined ? { channel } : {}) };
  if (link.expiresAt !== undefined) body.expiresAt = new Date(link.expiresAt).toISOString();
  return { ok: true, at: link.at, body };
}

/** Every link carried or refused; a slug seen before in the file is refused with where. */
export function carryAll(links: readonly ExportedLink[], options: CarryOptions): Carried[] {
  const seen = new Map<string, string>();
  return links.map((link) => {
    const first = seen.get(link.slug);
    if (link.slug !== '' && first !== undefined) {
      return { ok: false, at: link.at, slug: link.slug, reason: `the slug is also at ${first} in this file` };
    }
    if (link.slug !== '') seen.set(link.slug, link.at);
    return carryLink(link, options);
  });
}
