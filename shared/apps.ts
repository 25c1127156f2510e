/**
 * The apps of a deployment (docs/routes.md#apps): the registry document in KV under `APPS_KEY`, its
 * schema, and the names every stored key of an app takes. The worker resolves a request's app with
 * it (worker/apps/); `npm run apps` writes it and the other commands address an app with `--app`.
 */
import * as v from 'valibot';
import { CONFIG_KEY } from './config/schema.ts';

/** The app of a deployment that names none: its stored keys, rows and objects keep their names. */
export const DEFAULT_APP = 'default';

/**
 * Where app `app`'s objects start in R2 (docs/webhooks.md#exports): nowhere else for `default`, whose
 * keys are as before apps, `apps/<id>/` for another.
 */
export const appObjectPrefix = (app: string): string => (app === DEFAULT_APP ? '' : `apps/${app}/`);

/** The KV key of the registry; absent, the deployment is the one app `default` on every host. */
export const APPS_KEY = 'apps';

/** An app id: a lowercase letter, then 1–31 lowercase letters, digits or hyphens. */
export const APP_ID_PATTERN = /^[a-z][a-z0-9-]{1,31}$/;

/** The path prefix that selects an app on a shared host: `/@pebble/landing` is pebble's `/landing`. */
const PREFIX = /^\/@([^/?#]*)(?=\/|$)/;

const hostName = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.regex(/^(?=.{1,253}$)[a-z0-9-]+(\.[a-z0-9-]+)*(:\d{1,5})?$/, 'must be a host name such as go.example.com'),
);

export const AppEntrySchema = v.strictObject(
  {
    id: v.pipe(v.string(), v.regex(APP_ID_PATTERN, 'must be a lowercase letter then 1–31 of a-z, 0-9, -')),
    name: v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(80, 'at most 80 characters')),
    hosts: v.optional(v.pipe(v.array(hostName), v.maxLength(20, 'at most 20 hosts')), []),
  },
  (issue) => (issue.expected === 'never' ? 'unknown key; known keys are id, name, hosts' : 'must be an object'),
);

export const AppsRegistrySchema = v.strictObject(
  {
    apps: v.pipe(
      v.array(AppEntrySchema),
      v.minLength(1, 'needs at least one app'),
      v.maxLength(500, 'at most 500 apps'),
    ),
  },
  (issue) => (issue.expected === 'never' ? 'unknown key; the registry has only "apps"' : 'must be an object'),
);

export type AppEntry = v.InferOutput<typeof AppEntrySchema>;

/** One app as `GET /api/apps` lists it: with `base`, where its pages and API are on the shared host. */
export interface AppView extends AppEntry {
  base: string;
  /**
   * Where the caller opens the app's console from the host it asked on: `<base>/admin` on a shared
   * host, else an address on the app's own host or the shared one; null when no host reaches it.
   */
  console: string | null;
}

/** `GET /api/apps`: the apps the caller may see, and the app the call was made for. */
export interface AppsAnswer {
  apps: AppView[];
  current: string;
}

/** `AppsAnswer` as the OpenAPI document describes it (worker/openapi/team-paths.ts). */
export const AppsAnswerSchema = v.object({
  apps: v.array(
    v.object({
      id: v.pipe(v.string(), v.regex(APP_ID_PATTERN)),
      name: v.string(),
      hosts: v.array(v.string()),
      base: v.string(),
      console: v.nullable(v.string()),
    }),
  ),
  current: v.string(),
});
export type AppsRegistry = v.InferOutput<typeof AppsRegistrySchema>;

export interface RegistryProblem {
  /** Where, as a JSON path: `$.apps[1].id`. */
  path: string;
  message: string;
}

export type RegistryResult = { ok: true; registry: AppsRegistry } | { ok: false; problems: RegistryProblem[] };

function jsonPath(keys: readonly unknown[]): string {
  return `$${keys.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('')}`;
}

/** Validates a parsed registry document. */
export function validateRegistry(value: unknown): RegistryResult {
  const result = v.safeParse(AppsRegistrySchema, value);
  if (result.success) {
    const problems = clashes(result.output);
    return problems.length === 0 ? { ok: true, registry: result.output } : { ok: false, problems };
  }
  return {
    ok: false,
    problems: result.issues.map((issue) => ({
      path: jsonPath((issue.path ?? []).map((item) => item.key)),
      message: issue.message,
    })),
  };
}

/** Two apps with one id, or one host listed by two apps: each is a problem at the second. */
function clashes(registry: AppsRegistry): RegistryProblem[] {
  const problems: RegistryProblem[] = [];
  const ids = new Set<string>();
  const hosts = new Map<string, string>();
  registry.apps.forEach((app, index) => {
    if (ids.has(app.id)) problems.push({ path: `$.apps[${index}].id`, message: `duplicate app id "${app.id}"` });
    ids.add(app.id);
    app.hosts.forEach((host, h) => {
      const owner = hosts.get(host);
      if (owner !== undefined) {
        problems.push({ path: `$.apps[${index}].hosts[${h}]`, message: `host "${host}" is already app "${owner}"'s` });
      } else hosts.set(host, app.id);
    });
  });
  return problems;
}

/** Parses the registry's JSON text and validates it; text that is not JSON is one problem at `$`. */
export function parseRegistry(text: string): RegistryResult {
  try {
    return validateRegistry(JSON.parse(text));
  } catch (error) {
    return { ok: false, problems: [{ path: '$', message: `not JSON: ${(error as Error).message}` }] };
  }
}

/** The app a path's `/@<app>` prefix names (any text, checked by the caller), and the path without it. */
export function splitAppPrefix(pathname: string): { app: string; path: string } | null {
  const match = PREFIX.exec(pathname);
  if (!match) return null;
  return { app: match[1] ?? '', path: pathname.slice(match[0].length) || '/' };
}

/** The base path of `app`'s pages and API on a shared host: `/@pebble`; the default app's is ''. */
export function appBase(app: string): string {
  return app === DEFAULT_APP ? '' : `/@${app}`;
}

/**
 * The KV key of `key` for `app`: the default app keeps its key as it was (an existing deployment
 * upgrades with no step); another app's is `app:<id>:<key>`.
 */
export function appKvKey(app: string, key: string): string {
  return app === DEFAULT_APP ? key : `app:${app}:${key}`;
}

/** The configuration document's KV key for `app`: `config` for the default app, `config:<app>` for another. */
export function configKeyOf(app: string): string {
  return app === DEFAULT_APP ? CONFIG_KEY : `${CONFIG_KEY}:${app}`;
}
