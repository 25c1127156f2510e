/**
 * Imported WebCrypto keys kept for the isolate's life: importing costs more than the MAC itself. A
 * key is kept once imported, never as the import's promise: a promise belongs to the request (or
 * Durable Object) that made it, and workerd refuses to settle it for another ("Cannot perform I/O on
 * behalf of a different request"). Two requests that both find no key yet each import it; the
 * second's import then replaces nothing but itself.
 */
export interface KeptKeys {
  /** The key for `id`, imported with `importKey` the first time. */
  get(id: string, importKey: () => Promise<CryptoKey>): Promise<CryptoKey>;
}

/** A cache of at most `maxKeys` keys (emptied whole when full: a handful of secrets is the rule). */
export function keptKeys(maxKeys = 256): KeptKeys {
  const keys = new Map<string, CryptoKey>();
  return {
    async get(id, importKey) {
      const kept = keys.get(id);
      if (kept) return kept;
      const key = await importKey();
      if (keys.size >= maxKeys) keys.clear();
      keys.set(id, key);
      return key;
    },
  };
}
