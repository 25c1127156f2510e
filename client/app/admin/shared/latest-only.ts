/** What a superseded call gives instead of its answer. */
export const STALE = Symbol('stale');

/**
 * A gate for calls that replace each other (the console's figures as the range changes): only the
 * newest call's answer or failure comes through; an older one that lands after it gives `STALE`, so
 * a slow answer for a range no longer shown never overwrites the current one.
 */
export function latestOnly(): <T>(work: Promise<T>) => Promise<T | typeof STALE> {
  let newest = 0;
  return async (work) => {
    newest += 1;
    const ticket = newest;
    try {
      const value = await work;
      return ticket === newest ? value : STALE;
    } catch (error) {
      if (ticket !== newest) return STALE;
      throw error;
    }
  };
}
