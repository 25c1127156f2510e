/**
 * The campaign decode key (docs/config.md): the `DECODE_KEY` secret, or — in development only — the
 * built-in default, so a fresh checkout can mint and read links. It never reaches the browser.
 */

/** Development default; production refuses it. */
export const DEV_DECODE_KEY = 'LanderDevKey2026';

export function decodeKey(env: Pick<Env, 'LANDER_ENV'> & { DECODE_KEY?: string }): string | undefined {
  if (env.DECODE_KEY) return env.DECODE_KEY;
  if (env.LANDER_ENV === 'production') {
    console.error('DECODE_KEY is not set: campaign tokens cannot be read');
    return undefined;
  }
  return DEV_DECODE_KEY;
}
