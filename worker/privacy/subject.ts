/**
 * A privacy request's subject as the stores know it (docs/privacy.md#requests-erasure-and-access):
 * nothing raw is kept anywhere, so the request's id is turned into the same keyed hashes the stores
 * hold — computed here by the very functions that wrote them — and only those are kept, with their
 * SHA-256 digest that names the subject on the receipt.
 */
import type { IdentityType, PrivacyRequest } from '../../shared/privacy.ts';
import { appSalt } from '../apps/app-keys.ts';
import { visitorHash } from '../attribution/record-click.ts';
import { installKey } from '../attribution/resolve-install.ts';
import { deviceHash } from '../attribution/test-answers.ts';
import { userHash } from '../fraud/self-referral.ts';
import { settingsOf } from '../settings.ts';
import { installHash } from '../webhooks/send-facts.ts';

/** The keyed hashes of one subject, by what each store keys it with. */
export interface SubjectKeys {
  /** The ledger's and the fraud tables' install key, also its `install` event's id and funnel message id. */
  installs: string[];
  /** The install's hash in webhook bodies and export lines (`data.install`). */
  webhookInstalls: string[];
  /** A test device's hash (test_devices, test_answers). */
  testDevices: string[];
  /** The page's visitor id, hashed as a click keeps it. */
  visitors: string[];
  /** An app user id given to `identify`, hashed as the fraud tables keep it. */
  users: string[];
  /**
   * The slugs of the invite links the app made for that user (`POST /api/a/links`, its inviter the
   * user id as given): found when the request is taken, while its id is in hand, since a link keeps
   * its inviter as the app sent it. Absent from requests taken before links were erased.
   */
  links?: string[];
}

/** The app's own invite links whose inviter is `userId` (campaign/links.ts keeps it in `data`). */
async function appLinksOf(db: D1Database, app: string, userId: string): Promise<string[]> {
  const { results } = await db
    .prepare("SELECT slug FROM funnel_links WHERE app = ? AND source = 'app' AND json_extract(data, '$.inviter') = ?")
    .bind(app, userId)
    .all<{ slug: string }>();
  return results.map(({ slug }) => slug);
}

/** Why a request's subject cannot be hashed: the field and the reason. */
export type SubjectProblem = { field: string; reason: string };

/**
 * The keyed hashes of `request`'s subject in app `app`, or the problem: attribution's salt is needed
 * (production without `ATTRIBUTION_SALT` stores nothing to find), and an install id needs the package
 * or bundle id it was sent under (`property_id`), which its hashes include.
 */
export async function subjectKeysOf(
  env: Env,
  app: string,
  request: PrivacyRequest,
): Promise<SubjectKeys | SubjectProblem> {
  const { attributionSalt } = settingsOf(env);
  const [identity] = request.subject_identities;
  if (!identity) return { field: 'subject_identities', reason: 'must hold exactly one identity' };
  if (!attributionSalt) return { field: 'subject_identities', reason: 'ATTRIBUTION_SALT is not set: nothing is kept' };
  const salt = appSalt(attributionSalt, app);
  const keys: SubjectKeys = { installs: [], webhookInstalls: [], testDevices: [], visitors: [], users: [] };
  const value = identity.identity_value;
  switch (identity.identity_type) {
    case 'install_id': {
      const property = request.property_id;
      if (!property)
        return {
          field: 'property_id',
          reason: 'is needed with an install_id: the package or bundle id it was sent under',
        };
      keys.installs.push(await installKey(salt, property, value));
      keys.webhookInstalls.push(await installHash(env, app, property, value));
      keys.testDevices.push(await deviceHash(salt, property, value));
      break;
    }
    case 'visitor_id':
      keys.visitors.push(await visitorHash(salt, value));
      break;
    case 'user_id':
      keys.users.push(await userHash(salt, value));
      keys.links = await appLinksOf(env.FUNNEL_DB, app, value);
      break;
  }
  return keys;
}

/** The SHA-256 (hex) of a subject's keyed hashes: names it on the receipt without keeping them. */
export async function subjectDigest(type: IdentityType, keys: SubjectKeys): Promise<string> {
  const text = JSON.stringify([type, keys.installs, keys.webhookInstalls, keys.testDevices, keys.visitors, keys.users]);
  // The links are what the user id found, not the subject: they do not change its digest.
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
