/**
 * A subject's lines in the daily exports in R2 (docs/webhooks.md#exports,
 * docs/privacy.md#requests-erasure-and-access): every part of the app's install, open and app event
 * folders is read, and a part holding a line of the subject (its `id` the install's event, or its
 * `data.install` the install's webhook hash) is written again without those lines, or removed when
 * nothing is left of it. Clicks carry no install, so their parts are not read; links' parts are read
 * for a user's own invite links (their `data.slug`), which name the user as their inviter.
 */
import { appObjectPrefix } from '../../shared/apps.ts';
import type { SubjectKeys } from './subject.ts';

/** The export kinds whose lines may name an install, and the one whose lines may be a user's invite link. */
const KINDS = ['install', 'open', 'event'] as const;
const LINK_KIND = 'link';

async function linesOf(object: R2ObjectBody): Promise<string[]> {
  const text = await new Response(object.body.pipeThrough(new DecompressionStream('gzip'))).text();
  return text.split('\n').filter((line) => line.length > 0);
}

async function gzip(text: string): Promise<ArrayBuffer> {
  return new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer();
}

/** What names the subject in a line: its event id, its install's webhook hash, or its link's slug. */
interface LineKeys {
  ids: ReadonlySet<string>;
  installs: ReadonlySet<string>;
  links: ReadonlySet<string>;
}

function isSubjects(line: string, { ids, installs, links }: LineKeys): boolean {
  try {
    const parsed = JSON.parse(line) as { id?: unknown; type?: unknown; data?: { install?: unknown; slug?: unknown } };
    if (String(parsed.type).startsWith('link.')) return links.has(String(parsed.data?.slug));
    return ids.has(String(parsed.id)) || installs.has(String(parsed.data?.install));
  } catch {
    return false;
  }
}

/** Every key under `prefix`, page by page. */
async function keysUnder(bucket: R2Bucket, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix, ...(cursor ? { cursor } : {}) });
    keys.push(...page.objects.map((object) => object.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys;
}

/**
 * The subject's export lines of app `app`, by R2 key (parts without any left out); `erase` rewrites
 * each such part without them.
 */
export async function exportSubjectLines(
  bucket: R2Bucket,
  app: string,
  keys: SubjectKeys,
  erase: boolean,
): Promise<Record<string, Record<string, unknown>[]>> {
  const found: Record<string, Record<string, unknown>[]> = {};
  const links = keys.links ?? [];
  const kinds: string[] = [
    ...(keys.installs.length > 0 || keys.webhookInstalls.length > 0 ? KINDS : []),
    ...(links.length > 0 ? [LINK_KIND] : []),
  ];
  const subject: LineKeys = {
    ids: new Set(keys.installs.map((key) => `msg_${key}`)),
    installs: new Set(keys.webhookInstalls),
    links: new Set(links),
  };
  for (const kind of kinds) {
    for (const key of await keysUnder(bucket, `${appObjectPrefix(app)}exports/${kind}/`)) {
      const object = await bucket.get(key);
      if (!object) continue;
      const lines = await linesOf(object);
      const subjects = lines.filter((line) => isSubjects(line, subject));
      if (subjects.length === 0) continue;
      found[key] = subjects.map((line) => JSON.parse(line) as Record<string, unknown>);
      if (!erase) continue;
      const rest = lines.filter((line) => !isSubjects(line, subject));
      if (rest.length === 0) await bucket.delete(key);
      else
        await bucket.put(key, await gzip(`${rest.join('\n')}\n`), {
          httpMetadata: { contentType: 'application/gzip' },
          customMetadata: { ...object.customMetadata, lines: String(rest.length) },
        });
    }
  }
  return found;
}
