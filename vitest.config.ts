/**
 * Three test levels: pure units in Node, the worker inside workerd, and what a person sees in real
 * browsers (Chromium, and WebKit for Safari's engine) against the started worker. No test is
 * retried: a test that fails once has found a fault or waits on time instead of on its condition.
 */

import { availableParallelism } from 'node:os';
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';
import { KV_WRITERS } from './tests/browser/kv-writers.ts';

// The worker tests' D1 starts empty: a setup file applies the repository's migrations to it.
const migrations = await readD1Migrations('./migrations');

/** What a person sees in real browsers, against the worker their project's global setup started. */
const browser = {
  environment: 'node' as const,
  globalSetup: ['tests/browser/global-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  // Waits on a condition end by their deadline, not by the suite's load: 1 s is too short for a busy
  // 2-core machine, and a condition that holds never costs the full 15 s.
  expect: { poll: { timeout: 15_000 } },
};

/** The browser test files that change the started worker's KV (tests/browser/kv-writers.ts). */
const changesKv = [...KV_WRITERS];

export default defineConfig({
  test: {
    // Test files wait on timers, browsers and workerd as much as on the processor: two at a time even
    // where vitest's default (one fewer than the cores) would run one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // vitest's own report, then one plain `N passed, N failed` line for whoever reads the log.
    reporters: ['default', './tests/plain-summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          environment: 'node',
          // The command-line tests start Node, wrangler and workerd, beside another file's test.
          testTimeout: 30_000,
        },
      },
      {
        // The benchmark's and the observatory's own tests; the observatory grades the started worker.
        test: {
          name: 'tools',
          include: ['tools/tests/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['tests/browser/global-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        plugins: [
          cloudflareTest({
            wrangler: { configPath: './wrangler.toml' },
            miniflare: { bindings: { TEST_MIGRATIONS: migrations } },
          }),
        ],
        test: {
          name: 'worker',
          include: ['tests/worker/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/worker/apply-migrations.ts'],
          // Property tests make hundreds of requests; on a busy 2-core machine 5 s is not enough.
          testTimeout: 30_000,
          // The first request of a file loads the worker's modules, slow on a busy machine.
          hookTimeout: 60_000,
          globalSetup: [
            'tests/worker/global-setup.ts',
            'tests/worker/webhook-receiver.ts',
            'tests/worker/conversions/platform-fake.ts',
          ],
        },
      },
      {
        // Files that only read the started worker's data run side by side.
        test: { ...browser, name: 'browser', include: ['tests/browser/**/*.test.ts'], exclude: changesKv },
      },
      {
        // Files that change the started worker's KV (its config) run one at a time against a worker
        // of their own, so no other file sees their config.
        test: { ...browser, name: 'browser-kv', include: changesKv, fileParallelism: false },
      },
    ],
  },
});
