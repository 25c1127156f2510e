/** Applies the repository's D1 migrations (read by vitest.config.ts) before each test file. */
import { applyD1Migrations } from 'cloudflare:test';
import { env } from 'cloudflare:workers';

await applyD1Migrations(env.FUNNEL_DB, env.TEST_MIGRATIONS);
