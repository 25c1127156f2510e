/**
 * `npm run try-install -- --simulate SOURCE` against the started worker (docs/attribution.md#deterministic-sources):
 * with no phone, the script taps its link and sends the test install each source would, and prints the
 * answer by that source's method; Honor's store, which hands over its channel only, is not matched by a
 * carrier; Meta's referrer, sealed with the development demo key, is answered `meta` with Meta's ids,
 * and in production no key but the app's own is taken.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { APP_ID } from '../fixtures/fake-app.ts';
import { META_CAMPAIGN } from '../fixtures/meta-referrer.ts';

const baseURL = inject('baseURL');
const run = promisify(execFile);
const env = { ...process.env, ADMIN_TOKEN: 'lander-dev-admin' };

async function simulate(source: string, flags: string[] = ['--base', baseURL], extraEnv: Record<string, string> = {}) {
  return run(
    process.execPath,
    ['scripts/try-install.ts', ...flags, '--simulate', source, '--app', APP_ID, '--timeout', '60'],
    { env: { ...env, ...extraEnv }, timeout: 90_000 },
  );
}

type Failed = { code: number; stderr: string };

describe('npm run try-install -- --simulate', () => {
  it.each([
    ['clipboard', 'clipboard', 'Clipboard: valid, answered'],
    ['play', 'referrer', 'Play referrer: valid, answered'],
    ['apk', 'apk', 'APK stamp: valid, answered'],
    ['harmony', 'harmony', 'HarmonyOS link: valid, answered'],
    ['appgallery', 'appgallery', 'AppGallery referrer: valid, answered'],
  ])("%s: matched by %s, with the link's campaign", async (source, method, why) => {
    const { stdout } = await simulate(source);
    expect(stdout).toMatch(/Test device \S{8} \(com\.pebble\.notes\) registered\./);
    expect(stdout).toMatch(
      new RegExp(`Answer: matched by ${method}, confidence 100, data \\{"channel":"try-install"\\}`),
    );
    expect(stdout).toContain(`  - ${why}`);
  });

  it("honor: the store's channel only, so no carrier answers", async () => {
    const { stdout } = await simulate('honor');
    expect(stdout).toContain('its channel only');
    expect(stdout).not.toMatch(/Answer: matched by (clipboard|referrer|apk|harmony|appgallery)/);
  });

  it("meta: Meta's referrer sealed with the development demo key, matched by meta with Meta's ad, ad set and campaign", async () => {
    const { stdout } = await simulate('meta');
    expect(stdout).toMatch(/Test device \S{8} \(com\.pebble\.notes\) registered\./);
    expect(stdout).toContain(
      `Answer: matched by meta, confidence 100, data ${JSON.stringify({ ...META_CAMPAIGN, is_ct: '1' })}`,
    );
    expect(stdout).toContain("  - Meta's install referrer: valid, answered");
  });

  it("meta: a key that is not this app's opens nothing, and the answer says why", async () => {
    const { stdout } = await simulate('meta', ['--base', baseURL, '--meta-key', 'ab'.repeat(32)]);
    expect(stdout).toContain('Answer: not matched');
    expect(stdout).toContain("  - Meta's install referrer:");
    expect(stdout).not.toContain("Meta's install referrer: valid");
  });

  it('meta: in production, refuses to seal without a key given, before asking the worker anything', async () => {
    const failed = await simulate('meta', ['--env', 'production'], { LANDER_URL: 'https://lander.invalid' }).catch(
      (error: Failed) => error,
    );
    expect(failed).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        "--simulate meta with --env production needs the app's Install Referrer Decryption Key",
      ),
    });
    const malformed = await simulate('meta', ['--base', baseURL, '--meta-key', 'not-hex']).catch(
      (error: Failed) => error,
    );
    expect(malformed).toMatchObject({ code: 2, stderr: expect.stringContaining('--meta-key (or META_REFERRER_KEY)') });
  });

  it('refuses a source it does not know, naming the sources', async () => {
    const failed = await simulate('xiaomi').catch((error: Failed) => error);
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining('--simulate takes one of clipboard') });
  });
});
