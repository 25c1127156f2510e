/**
 * A short link's preview (docs/smart-links.md#previews), through the real worker: kept with the link
 * (POST, PATCH, GET), refused naming its field, and shown to every previewer in the page's head
 * (Open Graph, Twitter card, the description meta) and, for WeChat's share card, as the body's first
 * image; a generated card's URL carries its size; a variant's preview is its visitors', a bot's the control's.
 */
import { env, exports } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import type { LinkView } from '../../../shared/admin-contract.ts';
import { DEV_ADMIN_TOKEN, settingsOf } from '../../../worker/settings.ts';
import { assignmentKey, assignVariant } from '../../../worker/variants/assign.ts';
import { CRAWLER_AGENTS, IN_APP_AGENTS, UA } from '../../fixtures/agents.ts';
import { get, ORIGIN } from '../helpers.ts';

const auth = { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' };
const PREVIEW = {
  title: 'Pebble: notes that stay — 笔记',
  description: 'Free this week & every theme included',
  image: 'https://images.example.com/pebble-card.png',
};

function admin(path: string, method: string, body?: unknown): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}${path}`, {
      method,
      headers: auth,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );
}

async function makeLink(extra: Record<string, unknown> = {}): Promise<LinkView> {
  const slug = `p-${crypto.randomUUID().slice(0, 8)}`;
  const res = await admin('/api/links', 'POST', { channel: 'preview-test', slug, ...extra });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json<LinkView>();
}

const ENTITIES: Record<string, string> = { amp: '&', quot: '"', lt: '<', gt: '>', apos: "'" };
const decodeHtml = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith('#x')) return String.fromCodePoint(Number.parseInt(name.slice(2), 16));
    if (name.startsWith('#')) return String.fromCodePoint(Number(name.slice(1)));
    return ENTITIES[name] ?? whole;
  });

/** The head's meta tags of `html` by `property` or `name`, as the previewers read them. */
function metaOf(html: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const [tag] of html.matchAll(/<meta [^>]*>/g)) {
    const key = /(?:property|name)="([^"]+)"/.exec(tag)?.[1];
    const content = /content="([^"]*)"/.exec(tag)?.[1];
    if (key && content !== undefined && !found.has(key)) found.set(key, decodeHtml(content));
  }
  return found;
}

const titleOf = (html: string): string => decodeHtml(/<title>([^<]*)<\/title>/.exec(html)?.[1] ?? '');
/** The `src` of the first `<img>` in the body: what WeChat's share card shows. */
const firstImage = (html: string): string =>
  decodeHtml(/<img [^>]*src="([^"]*)"/.exec(html.slice(html.indexOf('<body')))?.[1] ?? '');

const WECHAT = IN_APP_AGENTS.find(({ app }) => app === 'WeChat')?.agent ?? '';
const PREVIEWERS: [string, string][] = [
  ['Facebook', CRAWLER_AGENTS.facebookexternalhit ?? ''],
  ['X', CRAWLER_AGENTS.Twitterbot ?? ''],
  ['LinkedIn', CRAWLER_AGENTS.LinkedInBot ?? ''],
  ['Slack', CRAWLER_AGENTS.Slackbot ?? ''],
  ['Discord', CRAWLER_AGENTS.Discordbot ?? ''],
  ['WhatsApp', CRAWLER_AGENTS.WhatsApp ?? ''],
  ['Telegram', CRAWLER_AGENTS.TelegramBot ?? ''],
  // WeChat builds its share card from the page open in its own browser.
  ['WeChat', WECHAT],
];

describe('a link with a preview', () => {
  it.each(PREVIEWERS)('shows %s its title, description and image', async (_, agent) => {
    expect(agent).not.toBe('');
    const link = await makeLink({ preview: PREVIEW });
    const res = await get(`/s/${link.slug}`, { userAgent: agent });
    expect(res.status).toBe(200);
    const html = await res.text();
    const meta = metaOf(html);
    expect(titleOf(html)).toBe(PREVIEW.title);
    expect(meta.get('description')).toBe(PREVIEW.description);
    expect(meta.get('og:title')).toBe(PREVIEW.title);
    expect(meta.get('og:description')).toBe(PREVIEW.description);
    expect(meta.get('og:image')).toBe(PREVIEW.image);
    expect(meta.get('twitter:card')).toBe('summary_large_image');
    expect(meta.get('twitter:title')).toBe(PREVIEW.title);
    expect(meta.get('twitter:image')).toBe(PREVIEW.image);
    expect(firstImage(html)).toBe(PREVIEW.image);
  });

  it('is kept, shown by GET and replaced or removed by PATCH', async () => {
    const link = await makeLink({ preview: PREVIEW });
    expect(link.preview).toEqual(PREVIEW);
    const read = await (await admin(`/api/links/${link.slug}`, 'GET')).json<LinkView>();
    expect(read.preview).toEqual(PREVIEW);
    const changed = await admin(`/api/links/${link.slug}`, 'PATCH', { preview: { title: 'Only a title' } });
    expect(changed.status).toBe(200);
    const html = await (await get(`/s/${link.slug}`, { userAgent: CRAWLER_AGENTS.Twitterbot })).text();
    expect(metaOf(html).get('og:title')).toBe('Only a title');
    expect(metaOf(html).get('og:image')).not.toBe(PREVIEW.image);
    expect((await admin(`/api/links/${link.slug}`, 'PATCH', { preview: null })).status).toBe(200);
    expect((await (await admin(`/api/links/${link.slug}`, 'GET')).json<LinkView>()).preview).toBeNull();
  });

  it('of a generated card points at /s/<slug>/card.png with its size', async () => {
    const link = await makeLink({ preview: { title: 'A card', image: 'card' } });
    const html = await (await get(`/s/${link.slug}`, { userAgent: CRAWLER_AGENTS.facebookexternalhit })).text();
    const meta = metaOf(html);
    expect(meta.get('og:image')).toBe(`${ORIGIN}/s/${link.slug}/card.png`);
    expect(meta.get('og:image:width')).toBe('1200');
    expect(meta.get('og:image:height')).toBe('630');
    expect(firstImage(html)).toBe(`${ORIGIN}/s/${link.slug}/card.png`);
  });

  it.each([
    [{ image: 'http://images.example.com/a.png' }, 'preview.image'],
    [{ image: 'javascript:alert(1)' }, 'preview.image'],
    [{ title: ' ' }, 'preview.title is blank'],
    [{ description: 'x'.repeat(301) }, 'preview.description is longer than 300'],
    [{ colour: 'red' }, 'colour'],
  ])('is refused with 400 naming the field: %j', async (preview, named) => {
    const res = await admin('/api/links', 'POST', { slug: `p-${crypto.randomUUID().slice(0, 8)}`, preview });
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string }>()).error).toContain(named);
  });
});

describe("a variant's preview", () => {
  const VARIANTS = [
    { name: 'a', weight: 1, preview: { title: 'Control title' } },
    { name: 'b', weight: 1, preview: { title: 'Variant title', image: 'https://images.example.com/b.png' } },
  ];

  it("is its visitors'; a bot gets the control's over the link's", async () => {
    const link = await makeLink({ preview: PREVIEW });
    expect((await admin(`/api/links/${link.slug}/variants`, 'PUT', { variants: VARIANTS })).status).toBe(200);
    const bot = metaOf(await (await get(`/s/${link.slug}`, { userAgent: CRAWLER_AGENTS.Slackbot })).text());
    expect(bot.get('og:title')).toBe('Control title');
    expect(bot.get('og:description')).toBe(PREVIEW.description);
    expect(bot.get('og:image')).toBe(PREVIEW.image);
    const key = assignmentKey(settingsOf(env).funnelSalt ?? '', 'default');
    for (const visitor of [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()]) {
      const chosen = VARIANTS[await assignVariant(key, link.slug, visitor, [1, 1])];
      const res = await get(`/s/${link.slug}`, {
        userAgent: UA.iPhoneSafari,
        headers: { cookie: `user_id=${visitor}` },
      });
      const html = await res.text();
      expect(metaOf(html).get('og:title')).toBe(chosen?.preview.title);
      expect(firstImage(html)).toBe(chosen?.name === 'b' ? 'https://images.example.com/b.png' : PREVIEW.image);
    }
  });
});
