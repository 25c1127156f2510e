/**
 * `npm run try-install -- [--local | --env development|production] [--base URL] [--channel NAME]
 * [--timeout SECONDS] [--app APP --install-id ID]` walks a developer through a test install
 * (docs/attribution.md, "Test devices"): it registers the phone's installation as a test device
 * (`POST /api/test-devices`, with `--install-id`: only a registered device's `test: true` is answered
 * as a test), asks the running worker for a short link of its own (`POST /api/links`), prints it
 * and its QR code, waits for the tap on it (`GET /api/stats?by=link`), then for the next install a
 * test device makes (`GET /api/test-installs`), and prints that answer and why it was given. With
 * `--simulate SOURCE` no phone is needed: the script taps the link itself, then sends the test install
 * an app would send with the carrier where that source puts it (`clipboard`, `play`, `apk`,
 * `harmony`, `appgallery`), the store channel only a maker's store reports (`honor`), or, with no
 * tap, Meta's install referrer sealed with the app's key from Meta (`meta`: `--meta-key` or
 * `META_REFERRER_KEY`; the development demo key otherwise, refused with `--env production`), from a
 * test device of its own (docs/attribution.md#deterministic-sources). Where
 * and with which token: as `npm run stats` (scripts/lib/admin-api.ts). Exit 0 once an install
 * arrived, 1 when none did in time, 2 when the worker refused.
 */
import type { LinkView, TestDeviceView, TestInstallView } from '../shared/admin-contract.ts';
import { explanationLines } from '../shared/install-explanation.ts';
import type { StatsResult } from '../worker/funnel/stats-query.ts';
import { qrTerminal } from '../worker/lib/qr-code.ts';
import { DEV_META_REFERRER_KEY } from '../worker/settings.ts';
import { type AdminTarget, adminTarget, callAdmin, errorOf } from './lib/admin-api.ts';
import { type CliHelp, cliArgs, helpIfAsked } from './lib/cli-args.ts';
import { META_CAMPAIGN, sealMetaReferrer } from './lib/meta-referrer.ts';

const USAGE =
  'usage: npm run try-install -- [--local | --env development|production] [--base URL] [--channel NAME] ' +
  '[--timeout SECONDS] [--app APP --install-id ID] [--app-id ID] [--simulate SOURCE --app APP] [--meta-key HEX]';

/**
 * Where each source puts the carrier in the install an app sends (docs/attribution.md): its field of
 * `carriers`, or, for Honor's store, which hands over no carrier, the store channel alone.
 */
const SOURCES = {
  clipboard: (carrier: string, base: string) => ({ carriers: { clipboard: `${base}/i/${carrier}` } }),
  play: (carrier: string) => ({ carriers: { playReferrer: carrier } }),
  apk: (carrier: string) => ({ carriers: { apk: carrier } }),
  harmony: (carrier: string, base: string) => ({ carriers: { harmonyLink: `${base}/i/${carrier}` } }),
  appgallery: (carrier: string) => ({
    carriers: { appGallery: carrier },
    storeChannel: { store: 'appgallery', channel: 'try-install' },
  }),
  honor: () => ({ storeChannel: { store: 'honor', channel: 'try-install' } }),
  // Meta's ad is no Lander tap: its referrer is sealed apart (metaInstall) and no carrier is sent.
  meta: () => ({}),
} satisfies Record<string, (carrier: string, base: string) => Record<string, unknown>>;
type Source = keyof typeof SOURCES;

const HELP: CliHelp = {
  summary:
    'Walks you through a test install: prints a short link and its QR code, waits for the tap, then for the test install and why it was answered.',
  usage: USAGE,
  flags: [
    ['--local', 'the dev server of npm start (http://localhost:$PORT; with HOST, the address a phone reaches)'],
    ['--env development|production', 'the worker at LANDER_URL, with ADMIN_TOKEN'],
    ['--base URL', 'the worker at URL'],
    ['--channel NAME', "the short link's channel (default try-install)"],
    ['--timeout SECONDS', 'how long to wait for the install (default 600)'],
    ['--app APP --install-id ID', "register the phone's installation as a test device first"],
    [
      '--simulate SOURCE',
      `no phone: tap the link and send the test install a source would (${Object.keys(SOURCES).join(', ')}); needs --app`,
    ],
    [
      '--meta-key HEX',
      "with --simulate meta: the app's Install Referrer Decryption Key from Meta (64 hex; or META_REFERRER_KEY); without it, the development demo key, refused with --env production",
    ],
    [
      '--app-id ID',
      "the Lander app (docs/routes.md#apps) whose link and test device these are; --app is the phone's package",
    ],
  ],
  example:
    'npm run try-install -- --simulate appgallery --app com.example.app   |   HOST=192.168.1.20 npm run try-install -- --app com.example.app --install-id 3f2a…',
};

helpIfAsked('try-install', HELP);
const { values } = cliArgs('try-install', USAGE, {
  local: { type: 'boolean', default: false },
  env: { type: 'string' },
  base: { type: 'string' },
  channel: { type: 'string', default: 'try-install' },
  timeout: { type: 'string', default: '600' },
  app: { type: 'string' },
  'install-id': { type: 'string' },
  'app-id': { type: 'string' },
  simulate: { type: 'string' },
  'meta-key': { type: 'string' },
});

/** How often the worker is asked whether the tap and the install have come. */
const POLL_MS = 1000;

function fail(message: string, code = 2): never {
  console.error(`npm run try-install: ${message}`);
  process.exit(code);
}

/** The JSON answer of an admin GET or POST; a refusal ends the script with its message. */
async function call<T>(target: AdminTarget, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = body
    ? { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
    : {};
  const res = await callAdmin(target, path, init);
  if (!res.ok) fail(await errorOf(res));
  return (await res.json()) as T;
}

/** What to do on the phone: the link, its QR code, the test build. */
function printSteps(link: LinkView): void {
  console.log('1. On the test phone, open this link (or scan the code) and tap the button:');
  console.log(`   ${link.shortUrl}\n`);
  console.log(qrTerminal(link.shortUrl) ?? '');
  console.log('2. Install the app built with the SDK’s test option (test: true) and launch it.');
}

/** The answer in one line, as an app would read it. */
function answerLine(item: TestInstallView): string {
  const { answer } = item;
  if (!answer.matched) return `not matched: ${answer.reason}`;
  const data = JSON.stringify(answer.data);
  return `matched by ${answer.method}, confidence ${answer.confidence}, data ${data}, click ${answer.clickId}`;
}

const PHONE_AGENT =
  'Mozilla/5.0 (Linux; Android 12; NOH-AN00) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';

/** A POST of JSON to the worker's public API (the page's and the app's calls); a refusal ends the script. */
async function post(target: AdminTarget, path: string, body: unknown): Promise<Response> {
  const res = await fetch(`${target.base}${path}`, {
    method: 'POST',
    body: JSON.stringify(body),
    // A phone's browser: a tap from an agent that names no browser is a crawler's, never recorded.
    headers: { 'content-type': 'application/json', 'user-agent': PHONE_AGENT },
  });
  if (res.status >= 400) fail(`${path} answered ${res.status}: ${await res.text()}`);
  return res;
}

/**
 * The phone's part, simulated: a tap on the link's page (a click id the worker issued, the link's
 * campaign token), then the first launch of an Android app that found the carrier through `source`.
 */
async function simulate(
  target: AdminTarget,
  link: LinkView,
  source: Source,
  app: string,
  installId: string,
  metaKey: string | undefined,
) {
  const device = { tz: 'Asia/Shanghai', langs: ['zh-CN'] };
  const install = (fields: Record<string, unknown>) =>
    post(target, '/api/a/install', {
      app,
      platform: 'android',
      osVersion: '12',
      model: 'NOH-AN00',
      screen: { w: 360, h: 780, scale: 3 },
      ...device,
      installId,
      test: true,
      ...fields,
    });
  if (source === 'meta') {
    // An ad's click a minute ago, as the Facebook app's provider hands it over; no tap on Lander's page.
    const installReferrer = await sealMetaReferrer(
      { ...META_CAMPAIGN },
      metaKey ?? DEV_META_REFERRER_KEY,
      randomNonce(),
    );
    console.log(`Sending the install as an app that read Meta's install referrer would (sealed for ${app})…`);
    await install({
      metaReferrer: { installReferrer, actualTimestamp: Math.floor(Date.now() / 1000) - 60, isCt: true },
    });
    return;
  }
  if (source === 'honor') {
    // Honor's store hands the app its own channel, never a carrier: no tap to simulate.
    console.log('Sending the install as Honor’s store would (its channel only)…');
  }
  const ids = await fetch(`${target.base}/api/a/click-ids`);
  if (!ids.ok) fail(`/api/a/click-ids answered ${ids.status}`);
  const [clickId] = ((await ids.json()) as { clickIds: string[] }).clickIds;
  const d = new URL(link.url, target.base).searchParams.get('d') ?? '';
  await post(target, '/api/a/click', {
    clickId,
    action: 'store',
    d,
    link: link.slug,
    screen: { w: 360, h: 780, dpr: 3 },
    ...device,
  });
  const carrier = `${clickId}.${d}`;
  console.log(`Simulated tap: click ${clickId}. Sending the install as ${source} would…`);
  const origin = new URL(target.base).origin;
  await install(SOURCES[source](carrier, origin));
}

/** A fresh GCM nonce (12 bytes, hex): Meta seals each ad's data anew, and one referrer credits one install. */
const randomNonce = (): string =>
  Array.from(crypto.getRandomValues(new Uint8Array(12)), (byte) => byte.toString(16).padStart(2, '0')).join('');

/**
 * The key `--simulate meta` seals with: `--meta-key` or `META_REFERRER_KEY` (64 hex), else the
 * development demo key, which a production worker never takes: there, a key must be given.
 */
function metaKeyOf(given: string | undefined, production: boolean): string | undefined {
  if (given !== undefined) {
    if (!/^[0-9a-fA-F]{64}$/.test(given))
      fail('--meta-key (or META_REFERRER_KEY) takes the key from Meta as 64 hex digits');
    return given.toLowerCase();
  }
  if (production) {
    fail(
      "--simulate meta with --env production needs the app's Install Referrer Decryption Key from Meta " +
        '(App Dashboard, Settings › Basic › Android): --meta-key HEX or META_REFERRER_KEY; ' +
        'the development demo key is never taken in production',
    );
  }
  return undefined;
}

async function main(): Promise<void> {
  // `--app` is the package here, as the SDKs name it: the Lander app is `--app-id`, as in apk:upload.
  const { env, local, base } = values;
  // Before the worker is asked anything: a production worker never takes the demo key.
  if (values.simulate !== 'meta' && values['meta-key'] !== undefined) fail('--meta-key goes with --simulate meta only');
  const metaKey =
    values.simulate === 'meta'
      ? metaKeyOf(values['meta-key'] ?? process.env.META_REFERRER_KEY, env === 'production')
      : undefined;
  const found = adminTarget({ env, local, base, app: values['app-id'] }, process.env);
  if (!found.ok) fail(found.reason);
  const { target } = found;
  const seconds = Number(values.timeout);
  if (!Number.isInteger(seconds) || seconds < 1) fail(`--timeout takes whole seconds, got ${values.timeout}`);
  const deadline = Date.now() + seconds * 1000;
  const source = values.simulate;
  if (source !== undefined && !(source in SOURCES)) {
    fail(`--simulate takes one of ${Object.keys(SOURCES).join(', ')}, got ${source}`);
  }
  if (source !== undefined && values.app === undefined) fail('--simulate needs --app (the package the install names)');
  const installId = values['install-id'] ?? (source === undefined ? undefined : `try-${crypto.randomUUID()}`);
  if (installId !== undefined && values.app === undefined) fail('--install-id needs --app (the package or bundle id)');

  if (installId !== undefined && values.app !== undefined) {
    const device = await call<TestDeviceView>(target, '/api/test-devices', { app: values.app, installId });
    console.log(`Test device ${device.device.slice(0, 8)} (${device.app}) registered.`);
  } else {
    console.log('No --install-id: the app’s test install is refused until its installation is registered;');
    console.log(
      'its debug log names the install id: register it in the console, or run this with --app and --install-id.',
    );
  }

  // Only installs made from now on: the newest kept test answer is the starting line.
  const before = await call<{ installs: TestInstallView[] }>(target, '/api/test-installs?limit=1');
  let after = before.installs[0]?.id ?? 0;
  const link = await call<LinkView>(target, '/api/links', { channel: values.channel });

  if (source !== undefined && values.app !== undefined && installId !== undefined) {
    await simulate(target, link, source as Source, values.app, installId, metaKey);
  } else {
    printSteps(link);
  }
  console.log('Waiting for the tap…');

  let tapped = false;
  while (Date.now() < deadline) {
    if (!tapped) {
      const stats = await call<StatsResult>(target, `/api/stats?by=link&link=${encodeURIComponent(link.slug)}`);
      const taps = stats.rows[0]?.taps ?? 0;
      if (taps > 0) {
        tapped = true;
        console.log(`Tapped (${Object.keys(stats.rows[0]?.byAction ?? {}).join(', ')}). Waiting for the test install…`);
      }
    }
    const fresh = await call<{ installs: TestInstallView[] }>(target, `/api/test-installs?after=${after}`);
    // Oldest first, so a test open before the install prints in the order it happened.
    for (const item of [...fresh.installs].reverse()) {
      after = Math.max(after, item.id);
      console.log(
        `\n${item.kind === 'open' ? 'Open' : 'Install'} from device ${item.device.slice(0, 8)} (${item.app}${item.platform ? `, ${item.platform}` : ''}) at ${item.at}`,
      );
      console.log(`Answer: ${answerLine(item)}`);
      console.log('Why:');
      for (const line of explanationLines(item.explain)) console.log(`  - ${line}`);
      if (item.kind === 'install') return;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  fail(`no test install within ${seconds} s${tapped ? ' (the link was tapped)' : ' (the link was not tapped)'}`, 1);
}

await main().catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)));
