/**
 * What keeps one app's attribution apart from another's (docs/routes.md#apps): the key of its
 * keyed hashes and the names of its Durable Objects. The app `default` keeps the deployment's salt
 * and today's names, so a deployment from before apps keeps every click, install and bucket it had.
 *
 * Each other app hashes with a key of its own: its click ids, install keys, network buckets and test
 * devices are other values than any app's, so a click id another app issued is not "issued" here and
 * a click of one app can never credit an install of another. Its ledger shards and network buckets
 * also carry its id in their names, so no object holds two apps' state.
 */
import { DEFAULT_APP } from '../../shared/apps.ts';

/** The key of app `app`'s keyed hashes: `salt` itself for `default`, else one derived for the app. */
export const appSalt = (salt: string, app: string): string =>
  app === DEFAULT_APP ? salt : `${salt}\u0000app\u0000${app}`;

/** The Durable Object name `name` of app `app`: unchanged for `default`, prefixed with the app otherwise. */
export const appObjectName = (app: string, name: string): string => (app === DEFAULT_APP ? name : `app:${app}:${name}`);
