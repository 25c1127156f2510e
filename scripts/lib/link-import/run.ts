/**
 * Stores carried links through the links API (docs/operators.md#bring-your-links), idempotently:
 * `GET /api/links/<slug>` first; a slug not stored is created (`POST /api/links`), one stored with the
 * same campaign and expiry is unchanged, one stored otherwise is a conflict left as it is unless
 * `overwrite` (then it is deleted and stored anew). A dry run asks but never writes. Only `fetch`-like
 * calls: the CLI gives its admin call, the worker tests the worker itself.
 */
import type { LinkView } from '../../../shared/admin-contract.ts';
import type { Carried, LinkBody } from './carry.ts';
import { printable } from './read-file.ts';

/** A call of the admin API: a path (`/api/links`) and its request. */
export type AdminCall = (path: string, init?: RequestInit) => Promise<Response>;

export type OutcomeKind =
  | 'created'
  | 'unchanged'
  | 'overwritten'
  | 'would create'
  | 'would overwrite'
  | 'conflict'
  | 'not carried'
  | 'refused';

export interface Outcome {
  kind: OutcomeKind;
  /** Where the link is in the file. */
  at: string;
  slug: string;
  /** Why it was not carried, refused, or what differs in a conflict. */
  reason?: string;
}

export interface RunOptions {
  dryRun: boolean;
  overwrite: boolean;
}

/** The `error` of an API answer, or its status. */
async function reasonOf(res: Response): Promise<string> {
  const text = await res.text();
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object' && 'error' in body && typeof body.error === 'string') {
      return `${res.status}: ${body.error}`;
    }
  } catch {
    // not JSON: the status says enough
  }
  return `HTTP ${res.status}`;
}

const msOf = (iso: string | null | undefined): number | null => (iso ? Date.parse(iso) : null);

/** The fields in which the stored link differs from the one to store: campaign fields, then `expiresAt`. */
export function differences(stored: LinkView, body: LinkBody): string[] {
  const wanted: Record<string, string> = {
    ...body.data,
    ...(body.channel !== undefined ? { channel: body.channel } : {}),
  };
  const names = [...new Set([...Object.keys(wanted), ...Object.keys(stored.data)])].sort();
  const differ = names.filter((name) => wanted[name] !== stored.data[name]);
  if (msOf(stored.expiresAt) !== msOf(body.expiresAt)) differ.push('expiresAt');
  return differ;
}

const json = (body: LinkBody): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** Stores `body`: created, or why not (a slug taken meanwhile is a conflict). */
async function create(call: AdminCall, body: LinkBody, at: string, kind: 'created' | 'overwritten'): Promise<Outcome> {
  const res = await call('/api/links', json(body));
  if (res.status === 201) return { kind, at, slug: body.slug };
  const reason = await reasonOf(res);
  return { kind: res.status === 409 ? 'conflict' : 'refused', at, slug: body.slug, reason };
}

/** Replaces the stored link `body.slug` with `body`. */
async function overwrite(call: AdminCall, body: LinkBody, at: string): Promise<Outcome> {
  const removed = await call(`/api/links/${body.slug}`, { method: 'DELETE' });
  if (removed.status !== 204) return { kind: 'refused', at, slug: body.slug, reason: await reasonOf(removed) };
  const stored = await create(call, body, at, 'overwritten');
  if (stored.kind === 'overwritten') return stored;
  return { ...stored, kind: 'refused', reason: `deleted but not stored again (${stored.reason})` };
}

/** One carried link through the API. */
async function importOne(call: AdminCall, body: LinkBody, at: string, options: RunOptions): Promise<Outcome> {
  const found = await call(`/api/links/${body.slug}`);
  if (found.status === 404) {
    return options.dryRun ? { kind: 'would create', at, slug: body.slug } : create(call, body, at, 'created');
  }
  if (found.status !== 200) return { kind: 'refused', at, slug: body.slug, reason: await reasonOf(found) };
  const differ = differences((await found.json()) as LinkView, body);
  if (differ.length === 0) return { kind: 'unchanged', at, slug: body.slug };
  if (!options.overwrite) {
    return { kind: 'conflict', at, slug: body.slug, reason: `stored with another ${differ.join(', ')}` };
  }
  return options.dryRun ? { kind: 'would overwrite', at, slug: body.slug } : overwrite(call, body, at);
}

/** Every link's outcome, in the file's order, one call at a time. */
export async function importLinks(
  call: AdminCall,
  carried: readonly Carried[],
  options: RunOptions,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (const link of carried) {
    if (!link.ok) outcomes.push({ kind: 'not carried', at: link.at, slug: link.slug, reason: link.reason });
    else outcomes.push(await importOne(call, link.body, link.at, options));
  }
  return outcomes;
}

/** The report's lines: one per link not simply stored or kept, then the counts. */
export function reportLines(outcomes: readonly Outcome[]): string[] {
  const lines = outcomes
    .filter((outcome) => outcome.reason !== undefined || outcome.kind.startsWith('would'))
    .map((o) => `${o.kind}: ${o.at} ${o.slug === '' ? '(no slug)' : o.slug}${o.reason ? ` — ${o.reason}` : ''}`)
    // Slugs and reasons come from the file and the worker: never an escape sequence on the terminal.
    .map(printable);
  const counts = new Map<OutcomeKind, number>();
  for (const { kind } of outcomes) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  const summary = [...counts].map(([kind, count]) => `${count} ${kind}`).join(', ');
  return [...lines, `${outcomes.length} links: ${summary || 'none'}`];
}
