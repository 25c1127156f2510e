/**
 * `createLink({ channel, data })` (docs/sdk.md): an invite link for the user `identify()` named on this
 * install, made by `POST /api/a/links` with the install id, never the admin token. The operator decides
 * what an app may put in it (docs/campaign-links.md#invite-links-from-the-app); a refusal, a timeout or
 * an install not yet identified is thrown here, and logged (with `debug`) and answered as null by
 * `createLander`'s guard: never an error in the app.
 */
import type { Outcome } from './http.ts';
import type { Store } from './store.ts';
import type { InviteLink, InviteOptions } from './types.ts';

export async function createInvite(
  post: (path: string, body: unknown) => Promise<Outcome>,
  store: Store,
  app: string,
  installId: string,
  { channel, data }: InviteOptions = {},
): Promise<InviteLink> {
  const inviter = await store.read('user');
  if (!inviter) throw Error('no identify()');
  const outcome = await post('/api/a/links', { app, installId, inviter, channel, data });
  const made = outcome.kind === 'ok' ? (outcome.body as InviteLink | undefined) : undefined;
  // The caller's guard logs why (the status and the server's words) and answers null.
  if (typeof made?.url !== 'string') throw Error((outcome as { why?: string }).why);
  return made as InviteLink;
}
