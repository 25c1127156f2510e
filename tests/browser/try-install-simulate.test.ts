/**
 * `npm run try-install -- --simulate SOURCE` against the started worker (docs/attribution.md#deterministic-sources):
 * with no phone, the script taps its link and sends the test install each source would, and prints the
 * answer by that source's method; Honor's store, which hands over its channel only, is not matched by a
 * carrier.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, inject, it } from 'vitest';
import { APP_ID } from '../fixtures/fake-app.ts';

const baseURL = inject('baseURL');
const run = promisify(execFile);
const env = { ...process.env, ADMIN_TOKEN: 'lander-dev-admin' };

async function simulate(source: string) {
  return run(
    process.execPath,
    ['scripts/try-install.ts', '--base', baseURL, '--simulate', source, '--app', APP_ID, '--timeout', '60'],
    { env, timeout: 90_000 },
  );
}

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

  it('refuses a source it does not know, naming the sources', async () => {
    const failed = await simulate('xiaomi').catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2, stderr: expect.stringContaining('--simulate takes one of clipboard') });
  });
});
