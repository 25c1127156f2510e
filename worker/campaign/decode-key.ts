/**
 * The campaign decode key (docs/campaign-links.md): the `DECODE_KEY` secret, or — in development
 * only — the built-in default, so a fresh checkout can mint and read links. It never reaches the
 * browser. Production never decodes with the development key: without a secret of its own (or with
 * the development key as its secret) campaign decoding is off, the page still renders, and the
 * problem is logged once per isolate rather than on every request.
 */

import { devSecret } from '../lib/dev-secret.ts';

/** Development default; production refuses it. */
export const DEV_DECODE_KEY = 'LanderDevKey2026';

let reported = false;

export function decodeKey(env: Pick<Env, 'LANDER_ENV'> & { DECODE_KEY?: string }): string | undefined {
  const key = devSecret(env.LANDER_ENV, env.DECODE_KEY, DEV_DECODE_KEY);
  if (key) return key;
  if (!reported) {
    reported = true;
    console.error(
      env.DECODE_KEY
        ? 'DECODE_KEY is the development key: campaign decoding is off in production'
        : 'DECODE_KEY is not set: campaign decoding is off in production',
    );
  }
  return undefined;
}
