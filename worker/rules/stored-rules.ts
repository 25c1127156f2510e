/**
 * A stored link's rules, compiled once per isolate (docs/smart-links.md#running): rules are compiled
 * when written (campaign/links.ts refuses what does not compile) and again, once, by each isolate that
 * serves the link, kept in a bounded cache by their text. A link changed since is its new text, so
 * a new key: a kept compilation is never stale.
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

/**
 * `rules` compiled to run (their URLs held to the allow list when they run), or null when they no
 * longer compile (a variable since renamed): the link then serves its page.
 */
export function compiledRules(rules: readonly LinkRule[]): CompiledRules | null {
  const key = JSON.stringify(rules);
  const hit = kept.get(key);
  if (hit) return hit.compiled;
  const result = compileRules(rules, null);
  const compiled = result.ok ? result.compiled : null;
  if (!result.ok) console.error('Stored rules no longer compile', result.errors.join('; '));
  kept.set(key, { compiled, bytes: key.length * BYTES_PER_CHARACTER });
  return compiled;
}
