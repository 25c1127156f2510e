/**
 * `npm run link -- --channel X --inviter Y [--title T] [--rules ID] [--param key=value …] [--plain key=value …] [--base URL] [--app ID]
 * [--env production]` prints a campaign link: `/landing?d=<token>` plus any plain parameters. The token
 * carries `channel`, `inviter`, `title` (the display text the page shows) and every `--param`, encrypted with the decode key
 * (docs/campaign-links.md), and `rules`, the app's rule set it names with `--rules` (docs/smart-links.md#rule-sets): `DECODE_KEY` from the environment, else — in development only — the
 * built-in default. A link the worker would refuse is not printed: the reason goes to stderr, exit 2.
 *
 * `--short [--slug S] [--expires TIME] [--rule 'when => action' …] [--password P] [--preview-title T]
 * [--preview-description D] [--preview-image URL | --card] [--variant 'name=a,weight=50,headline=…' …] [--variant-event E]
 * [--qr-fg RRGGBB] [--qr-bg RRGGBB] [--qr-margin N] [--qr-logo] [--qr-scale N]` asks the worker instead
 * (`POST /api/links`, docs/operators.md; rules and passwords: docs/smart-links.md):
 * the running worker mints the link with its own key and stores it under a slug, and this prints the
 * short link, then the long one and the QR code's URL (with a `--qr-*` style, the styled SVG's and PNG's);
 * with `--variant`, it gives the link its variants (`PUT /api/links/<slug>/variants`); with `--card`, it draws the preview card in Node
 * (scripts/lib/link-card.ts) and uploads it, and prints the card's URL. `--card-for SLUG [--card-name N] [--icon FILE]`
 * draws the card of a link that is already kept (made in the console, say) from its preview's words, uploads
 * it and makes it the link's preview image. Where: the local dev server of `npm start`
 * without `--env` (or with `--local`), else `--base` or `LANDER_URL`; the token: `ADMIN_TOKEN`.
 */
import { readFile } from 'node:fs/promises';
import type { LinkView } from '../shared/admin-contract.ts';
import { APP_ID_PATTERN } from '../shared/apps.ts';
import { RULE_SET_ID, RULES_FIELD } from '../shared/link-rules.ts';
import { type QrStyle, qrStyleQuery } from '../shared/qr-style.ts';
import type { Experiment } from '../shared/variants.ts';
import { secretOf } from '../worker/settings.ts';
import { adminTarget, callAdmin, errorOf, localOrigin } from './lib/admin-api.ts';
import { type CliHelp, cliArgs, helpIfAsked } from './lib/cli-args.ts';
import { previewArgument, qrStyleArgument, variantsArgument } from './lib/link-options.ts';
import { mintLink } from './lib/mint-link.ts';
import { ruleArgument } from './lib/rule-argument.ts';

const USAGE =
  'usage: npm run link -- --channel X --inviter Y [--title T] [--rules ID] [--param key=value …] [--plain key=value …] [--base URL] [--app ID] ' +
  "[--env development|production] | --short [--slug S] [--expires TIME] [--rule 'when => action' …] [--password P] " +
  '[--preview-title T] [--preview-description D] [--preview-image URL | --card [--card-name N] [--icon FILE]] ' +
  "[--variant 'name=a,weight=50,headline=H,text=T,button=B,image=URL,preview.title=P' …] [--variant-event E] " +
  '[--qr-fg RRGGBB] [--qr-bg RRGGBB] [--qr-margin N] [--qr-logo] [--qr-scale N] [--local] | ' +
  '--card-for SLUG [--card-name N] [--icon FILE]';

const HELP: CliHelp = {
  summary: 'Prints a campaign link (/landing?d=<token>); with --short, asks the running worker for a short link.',
  usage: USAGE,
  flags: [
    ['--channel X, --inviter Y', 'the signed fields every campaign carries'],
    ['--title T', "the campaign's display text the page shows (never the channel)"],
    ['--param key=value', 'another signed field (repeatable)'],
    ['--plain key=value', 'a plain query parameter beside the token (repeatable)'],
    ['--base URL', "the page's origin (default the dev server, http://localhost:$PORT, or LANDER_URL)"],
    ['--app ID', 'the app ID of the deployment (docs/routes.md#apps): its API under /@ID/api on the shared host'],
    ['--env development|production', 'production needs DECODE_KEY, and --base or LANDER_URL'],
    ['--short', 'mint on the worker (POST /api/links) and print the short link, the long one and its QR code'],
    ['--slug S, --expires TIME', "the short link's slug and expiry"],
    [
      "--rule 'when => action'",
      'a rule of the short link (repeatable, in order): a CEL condition, then store, page [variant], url URL or deep-link /path',
    ],
    ['--rules ID', "the app's rule set ID (docs/smart-links.md#rule-sets), named in the token's signed rules field"],
    ['--password P', 'the short link asks for this password (8 to 128 characters) before its page'],
    ['--local', 'the short link from the dev server of npm start'],
    [
      '--preview-title T, --preview-description D',
      "the short link's preview for link previewers (docs/smart-links.md#previews)",
    ],
    ['--preview-image URL', "the preview's image, an https URL"],
    [
      '--card [--card-name N] [--icon FILE]',
      "draws the preview's image from the icon (default public/logo.png) and texts, and uploads it",
    ],
    [
      '--card-for SLUG',
      "draws the card of a kept link from its preview's words, uploads it and makes it the preview's image",
    ],
    [
      "--variant 'name=a,weight=50,headline=H,text=T,button=B,image=URL'",
      "a variant of the short link's page (repeatable, 2 to 8, the first the control; weight 1 when left out); " +
        'preview.title=, preview.description= and preview.image= give its visitors their own share preview',
    ],
    ['--variant-event E', 'judge the variants on this app event rather than installs'],
    ['--qr-fg RRGGBB, --qr-bg RRGGBB', "the QR code's colours (dark on light, contrast at least 4.5:1)"],
    ['--qr-margin N, --qr-scale N', 'its quiet zone in modules (2 to 16), the PNG’s pixels a module (2 to 24)'],
    ['--qr-logo', "the app's logo in the code's centre"],
  ],
  example: 'npm run link -- --channel newsletter --inviter ada --short',
};

helpIfAsked('link', HELP);
const { values } = cliArgs('link', USAGE, {
  channel: { type: 'string' },
  inviter: { type: 'string' },
  title: { type: 'string' },
  param: { type: 'string', multiple: true, default: [] },
  plain: { type: 'string', multiple: true, default: [] },
  base: { type: 'string' },
  app: { type: 'string' },
  env: { type: 'string', default: '' },
  short: { type: 'boolean', default: false },
  local: { type: 'boolean', default: false },
  slug: { type: 'string' },
  expires: { type: 'string' },
  rule: { type: 'string', multiple: true, default: [] },
  rules: { type: 'string' },
  password: { type: 'string' },
  'preview-title': { type: 'string' },
  'preview-description': { type: 'string' },
  'preview-image': { type: 'string' },
  card: { type: 'boolean', default: false },
  'card-for': { type: 'string' },
  'card-name': { type: 'string' },
  icon: { type: 'string', default: 'public/logo.png' },
  variant: { type: 'string', multiple: true, default: [] },
  'variant-event': { type: 'string' },
  'qr-fg': { type: 'string' },
  'qr-bg': { type: 'string' },
  'qr-margin': { type: 'string' },
  'qr-scale': { type: 'string' },
  'qr-logo': { type: 'boolean', default: false },
});

function fail(message: string): never {
  console.error(`npm run link: ${message}`);
  process.exit(2);
}

function pairs(list: string[]): [string, string][] {
  return list.map((item) => {
    const at = item.indexOf('=');
    if (at < 1) fail(`expected key=value, got ${JSON.stringify(item)}`);
    return [item.slice(0, at), item.slice(at + 1)];
  });
}

/** The short link's preview the flags ask for, if any (docs/smart-links.md#previews). */
function previewOf(): LinkView['preview'] | undefined {
  const read = previewArgument({
    title: values['preview-title'],
    description: values['preview-description'],
    image: values.card ? 'card' : values['preview-image'],
  });
  return read.ok ? read.value : fail(read.reason);
}

/** The variants the flags ask for, if any (docs/smart-links.md#variants-and-the-sequential-test). */
function experimentOf(): Experiment | undefined {
  if (values.variant.length === 0) {
    return values['variant-event'] === undefined ? undefined : fail('--variant-event needs --variant');
  }
  const read = variantsArgument(values.variant, values['variant-event']);
  return read.ok ? read.value : fail(read.reason);
}

/** The QR code's style the flags ask for, if any (docs/operators.md#qr-code-styles). */
function qrStyleOf(): QrStyle | undefined {
  const read = qrStyleArgument({
    fg: values['qr-fg'],
    bg: values['qr-bg'],
    margin: values['qr-margin'],
    scale: values['qr-scale'],
    logo: values['qr-logo'],
  });
  return read.ok ? read.value : fail(read.reason);
}

/** Gives `link` its variants; a refusal says the link itself was made. */
async function putVariants(target: Parameters<typeof callAdmin>[0], link: LinkView, experiment: Experiment) {
  const res = await callAdmin(target, `/api/links/${link.slug}/variants`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(experiment),
  });
  if (!res.ok) fail(`${link.shortUrl} was made, its variants were not: ${await errorOf(res)}`);
}

/**
 * Draws `link`'s card in Node (satori and resvg exceed the worker's budget) from `words` and uploads
 * it: its URL.
 */
async function uploadCard(
  target: Parameters<typeof callAdmin>[0],
  link: LinkView,
  words: { title: string; description?: string },
): Promise<string> {
  const { drawCard } = await import('./lib/link-card.ts');
  const png = await drawCard({ name: values['card-name'] ?? '', ...words, icon: await readFile(values.icon) });
  const res = await callAdmin(target, `/api/links/${link.slug}/card`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ png: Buffer.from(png).toString('base64') }),
  });
  if (!res.ok) fail(await errorOf(res));
  return ((await res.json()) as { card: string }).card;
}

/** Mints the link on the worker and prints its short URL, long URL and QR code URL. */
async function shortLink(payload: Record<string, string>): Promise<void> {
  if (values.plain.length > 0) fail('a short link carries only signed fields: use --param rather than --plain');
  const found = adminTarget(values, process.env);
  if (!found.ok) fail(found.reason);
  const { channel, inviter, ...data } = payload;
  const rules = values.rule.map((text) => {
    const parsed = ruleArgument(text);
    return parsed.ok ? parsed.rule : fail(parsed.reason);
  });
  // Every value is checked before anything is sent.
  const experiment = experimentOf();
  const style = qrStyleOf();
  const body = {
    channel,
    inviter,
    data,
    slug: values.slug,
    expiresAt: values.expires,
    rules: rules.length ? rules : undefined,
    password: values.password,
    preview: previewOf(),
  };
  try {
    const res = await callAdmin(found.target, '/api/links', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) fail(await errorOf(res));
    // The API's own answer: the worker and this script are one repository.
    const link = (await res.json()) as LinkView;
    if (experiment) await putVariants(found.target, link, experiment);
    console.log(link.shortUrl);
    console.log(link.url);
    if (style) {
      console.log(`${link.qr}${qrStyleQuery(style, 'svg')}`);
      console.log(`${link.qrPng}${qrStyleQuery(style, 'png')}`);
    } else console.log(link.qr);
    if (values.card) {
      const words = { title: values['preview-title'] ?? values.title ?? link.slug };
      console.log(await uploadCard(found.target, link, { ...words, description: values['preview-description'] }));
    }
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

/**
 * Draws and uploads the card of the kept link `slug` from its preview's words (else its display text,
 * else its slug), then makes the card its preview image; prints the card's URL.
 */
async function cardFor(slug: string): Promise<void> {
  const found = adminTarget(values, process.env);
  if (!found.ok) fail(found.reason);
  try {
    const res = await callAdmin(found.target, `/api/links/${encodeURIComponent(slug)}`, {});
    if (!res.ok) fail(`--card-for ${slug}: ${await errorOf(res)}`);
    const link = (await res.json()) as LinkView;
    const preview = link.preview ?? {};
    const title = preview.title ?? link.data.title ?? link.slug;
    const card = await uploadCard(found.target, link, { title, description: preview.description });
    if (preview.image !== 'card') {
      const patched = await callAdmin(found.target, `/api/links/${encodeURIComponent(slug)}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ preview: { ...preview, image: 'card' } }),
      });
      if (!patched.ok) fail(`${card} was uploaded, the preview was not changed: ${await errorOf(patched)}`);
    }
    console.log(card);
  } catch (error) {
    fail(error instanceof Error ? error.message : String(error));
  }
}

if (values['card-for'] !== undefined) {
  if (values.short || values.card) fail('--card-for draws the card of a kept link: leave out --short and --card');
  await cardFor(values['card-for']);
  process.exit(0);
}

if (values.env !== '' && values.env !== 'development' && values.env !== 'production') {
  fail(`unknown environment ${JSON.stringify(values.env)}: development or production`);
}
const production = values.env === 'production';
const payload: Record<string, string> = Object.fromEntries(pairs(values.param));
if (values.channel !== undefined) payload.channel = values.channel;
if (values.inviter !== undefined) payload.inviter = values.inviter;
if (values.title !== undefined) payload.title = values.title;
if (values.rules !== undefined) {
  if (!RULE_SET_ID.test(values.rules))
    fail(`--rules: ${JSON.stringify(values.rules)} is no rule set id (1 to 32 of a-z, 0-9, _ and -)`);
  payload[RULES_FIELD] = values.rules;
}

if (values.rule.length > 0 && !values.short) fail('--rule needs --short: rules live with a stored short link');
if (values.password !== undefined && !values.short)
  fail('--password needs --short: a password lives with a stored short link');
const previewFlags = [values['preview-title'], values['preview-description'], values['preview-image']];
if ((values.card || previewFlags.some((flag) => flag !== undefined)) && !values.short)
  fail('--preview-* and --card need --short: a preview lives with a stored short link');
if (values.card && values['preview-image'] !== undefined) fail('--card draws the image: leave out --preview-image');
const qrFlags = [values['qr-fg'], values['qr-bg'], values['qr-margin'], values['qr-scale']];
if ((values['qr-logo'] || qrFlags.some((flag) => flag !== undefined)) && !values.short)
  fail('--qr-* needs --short: a QR code is of a stored short link');
if ((values.variant.length > 0 || values['variant-event'] !== undefined) && !values.short)
  fail('--variant needs --short: variants live with a stored short link');
if (values.short) {
  await shortLink(payload);
  process.exit(0);
}
const key = secretOf(
  { LANDER_ENV: production ? 'production' : 'development', DECODE_KEY: process.env.DECODE_KEY },
  'DECODE_KEY',
);
if (!key) fail('set DECODE_KEY to the production decode key');

const base =
  values.base ??
  (production
    ? process.env.LANDER_URL || fail('say where the production worker is: --base URL or LANDER_URL')
    : process.env.LANDER_URL || localOrigin(process.env));
if (values.app !== undefined && !APP_ID_PATTERN.test(values.app))
  fail(`--app: ${JSON.stringify(values.app)} is no app id`);
// The app's pages are under its prefix on the shared host (docs/routes.md#apps).
const result = mintLink({ payload, plain: pairs(values.plain), base, key, app: values.app });
if (!result.ok) fail(result.reason);
console.log(result.url);
