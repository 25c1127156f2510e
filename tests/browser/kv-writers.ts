/**
 * The browser test files that change what the started worker serves: those that write its KV
 * (`inject('kvPersistTo')`), those that change who may sign in (the team's members), and those that
 * start a worker of their own (cookieless, cross-site writes). vitest.config.ts runs them one at a time in a project of their own (`browser-kv`), so no
 * other file sees their configuration; tests/unit/browser-projects.test.ts fails on a file that writes the KV and is not here.
 */
export const KV_WRITERS = [
  'tests/browser/about-app.test.ts',
  'tests/browser/apk-download.test.ts',
  'tests/browser/attribution.test.ts',
  'tests/browser/cohorts-console.test.ts',
  'tests/browser/cookieless.test.ts',
  'tests/browser/cross-site-writes.test.ts',
  'tests/browser/open-app.test.ts',
  'tests/browser/reachable-domain.test.ts',
  'tests/browser/sdk-android.test.ts',
  'tests/browser/sdk-js.test.ts',
  'tests/browser/team-console.test.ts',
  'tests/browser/webhooks-console.test.ts',
] as const;
