/**
 * Parses a URL that came from outside (a query value, a referrer, a command-line flag).
 * An invalid URL logs an error and yields no value (docs/config.md) — never a throw.
 */
export function parseUrl(input: string, base?: string): URL | undefined {
  try {
    return new URL(input, base);
  } catch {
    console.error(
      'Invalid URL',
      JSON.stringify(input.slice(0, 200)),
      base === undefined ? '' : `(base ${JSON.stringify(base.slice(0, 200))})`,
    );
    return undefined;
  }
}
