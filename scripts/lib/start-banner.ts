/**
 * What `npm start` prints once the worker is served (docs/operators.md#try-it-on-a-phone): the page's
 * URL, the console's URL with the development token, and with `HOST` set the address a phone on the
 * same network reaches, as a QR code to scan.
 */

import { qrTerminal } from '../../worker/lib/qr-code.ts';
import { DEV_ADMIN_TOKEN } from '../../worker/settings.ts';
import { localOrigin } from './admin-api.ts';

/** The lines `npm start` prints for `vars` (the process environment). */
export function startBanner(vars: Partial<Record<'PORT' | 'HOST', string>>): string {
  const origin = localOrigin(vars);
  const lines = [`The page:    ${origin}/landing`, `The console: ${origin}/admin (token ${DEV_ADMIN_TOKEN})`];
  if (vars.HOST && vars.HOST !== '127.0.0.1') {
    lines.push(
      `On a phone on the same network, scan (or open ${origin}/landing):`,
      qrTerminal(`${origin}/landing`) ?? '',
    );
  } else {
    lines.push('To try it on a phone on the same network: HOST=<this machine’s address> npm start');
  }
  return lines.join('\n');
}
