/**
 * A stored link's rules, compiled once per isolate (docs/smart-links.md#running): rules are compiled
 * when written (campaign/links.ts refuses what does not compile) and again, once, by each isolate that
 * serves the link, kept in a bounded cache by their text. A link changed since is its new text, so
 * a new key: a kept compilation is never stale. The text read from D1 is parsed once per isolate too
 * (`storedRules`), and is the key as it is: a kept page's hit neither parses nor stringifies rules.
 */
import type { LinkRule } from '../../shared/link-rules.ts';
import { boundedCache, CACHE_SHARES } from '../lib/bounded-cache.ts';
import { type CompiledRules, compileRules } from './compile.ts';

// A compiled condition holds its syntax tree: about 40 bytes per character of the rules' JSON, measured.
const BYTES_PER_CHARACTER = 40;

interface Kept {
  /** Null: the stored rules no longer compile. */
  compiled: CompiledRules | null;
  bytes: number;
}

const kept = boundedCache<Kept>({ maxBytes: CACHE_SHARES.linkRules, sizeOf: (entry) => entry.bytes });

/** The JSON each array of rules read by `storedRules` was parsed from: its cache key, never stringified again. */
const texts = new WeakMap<readonly LinkRule[], string>();

/** Rules read from D1 as `text`, parsed once per isolate (a kept page's hit parses nothing): never to be changed. */
const parsed = boundedCache<readonly LinkRule[]>({
  maxBytes: CACHE_SHARES.linkRules,
  // About 4 bytes of parsed objects per character of JSON.
  sizeOf: (rules) => (texts.get(rules)?.length ?? 0) * 4,
});

/** The rules a link or rule set keeps as `text` (JSON), shared by every request that reads the same text. */
export function storedRules(text: string): LinkRule[] {
  let rules = parsed.get(text);
  if (!rules) {
    rules = Object.freeze(JSON.parse(text) as LinkRule[]);
    texts.set(rules, text);
    parsed.set(text, rules);
  }
  return rules as LinkRule[];
}

/**
 * `rules` compiled to run (their URLs held to the allow list when they run), or null when they no
 * longer compile (a variable since renamed): the link then serves its page.
 */
export function compiledRules(rules: readonly LinkRule[]): CompiledRules | null {
  const key = texts.get(rules) ?? JSON.stringify(rules);
  const hit = kept.get(key);
  if (hit) return hit.compiled;
  const result = compileRules(rules, null);
  const compiled = result.ok ? result.compiled : null;
  if (!result.ok) console.error('Stored rules no longer compile', result.errors.join('; '));
  kept.set(key, { compiled, bytes: key.length * BYTES_PER_CHARACTER });
  return compiled;
}
