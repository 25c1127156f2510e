/**
 * Who makes the app and what it is (docs/screens.md#about-the-app): `/` and `/landing` render the
 * about block and the footer's filing numbers from the configuration, escaped, in both languages;
 * without those fields the pages carry none of it; in mainland mode an APK tap asks first.
 */
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it } from 'vitest';
import { PARENTS_KEY } from '../../../worker/apk/parents.ts';
import { aboutConfig, HOSTILE_DEVELOPER } from '../../fixtures/about-config.ts';
import { UA } from '../../fixtures/agents.ts';
import { DEMO } from '../../fixtures/config.ts';
import { clearConfig, get, handoffOf, storeConfig } from '../helpers.ts';

const PAGES = ['/', '/landing'] as const;

async function html(path: string, language: string, userAgent = UA.androidChrome): Promise<string> {
  const response = await get(path, { userAgent, headers: { 'accept-language': language } });
  expect(response.status).toBe(200);
  return response.text();
}

/** The server HTML without the hand-off's data block: what the visitor sees. */
function markup(page: string): string {
  return page.replace(/<script type="application\/json" id="lander-data">.*?<\/script>/s, '');
}

afterEach(async () => {
  await clearConfig();
  await env.KV.delete(PARENTS_KEY);
});

describe.each(PAGES)('%s with every about field', (path) => {
  it('shows each field in English', async () => {
    await storeConfig(aboutConfig());
    const page = markup(await html(path, 'en'));
    expect(page).toContain('About this app');
    expect(page).toContain('Pebble Labs Ltd.');
    expect(page).toContain('2.4.0 · Nov 18, 2026');
    expect(page).toContain('36.2 MB');
    expect(page).toContain('Quick notes, checklists and reminders that sync across your devices.');
    expect(page).toMatch(/<img src="\/logo.png\?shot=1" alt="The note list" width="412" height="915" loading="lazy"/);
    expect(page).toContain(
      '<a href="https://pebble.example/privacy" rel="noopener" target="_blank">Privacy policy</a>',
    );
    expect(page).toContain('<dt>Camera</dt><dd>To scan a document into a note</dd>');
    expect(page).toContain(
      '<a href="https://beian.miit.gov.cn/" rel="noopener" target="_blank">京ICP备12345678号-1</a>',
    );
    expect(page).toContain('京ICP备12345678号-2A');
  });

  it('shows each field in Chinese', async () => {
    await storeConfig(aboutConfig());
    const page = markup(await html(path, 'zh-CN'));
    expect(page).toContain('关于此应用');
    expect(page).toContain('卵石实验室有限公司');
    expect(page).toContain('2.4.0 · 2026年11月18日');
    expect(page).toContain('随手记下笔记、清单与提醒，多设备同步。');
    expect(page).toContain('alt="笔记列表"');
    expect(page).toContain('>隐私政策</a>');
    expect(page).toContain('<dt>相机</dt><dd>用于把文档扫描进笔记</dd>');
  });

  it('escapes a configured text', async () => {
    await storeConfig(aboutConfig({ developer: HOSTILE_DEVELOPER }));
    const page = await html(path, 'en');
    expect(page).not.toContain('<b>Labs</b>');
    expect(markup(page)).toContain('Pebble &#60;b&#62;Labs&#60;/b&#62; &#38; &#34;Co&#34;');
  });

  it('renders as before without them: no about block, no filing numbers, no confirmation', async () => {
    await storeConfig(DEMO);
    const page = await html(path, 'en');
    expect(page).not.toMatch(/about-app|site-filings|apk-confirm|beian/);
    const { handoff } = handoffOf(page);
    expect([handoff.about, handoff.apkConfirm]).toEqual([null, null]);
  });

  it('outside mainland mode an APK tap is not confirmed', async () => {
    await storeConfig(aboutConfig());
    const page = await html(path, 'en');
    expect(page).not.toContain('apk-confirm');
    expect(handoffOf(page).handoff.apkConfirm).toBeNull();
  });
});

describe.each(PAGES)('%s in mainland mode', (path) => {
  it('hands the page the APK confirmation: the facts, Download and Cancel', async () => {
    await storeConfig(aboutConfig({ mainland: true }));
    const page = await html(path, 'en');
    const { apkConfirm } = handoffOf(page).handoff;
    expect(apkConfirm.title).toBe('Download Pebble Notes?');
    expect(apkConfirm.cancel).toBe('Cancel');
    expect(apkConfirm.facts).toEqual([
      { label: 'App', value: 'Pebble Notes' },
      { label: 'Developer', value: 'Pebble Labs Ltd.' },
      { label: 'Version', value: '2.4.0 · Nov 18, 2026' },
      { label: 'Size', value: '36.2 MB' },
    ]);
    expect(apkConfirm.privacy).toEqual({ label: 'Privacy policy', href: 'https://pebble.example/privacy' });
    expect(apkConfirm.download).toBe('Download');
  });

  it('gives "Open the app" no APK to fall back to: no timer, no intent fallback starts it unconfirmed', async () => {
    await storeConfig(aboutConfig({ mainland: true }));
    const { openApp } = handoffOf(await html(path, 'en')).handoff;
    expect(openApp.method).toBe('intent');
    expect(openApp.fallback).toBeNull();
    expect(openApp.href).not.toContain('browser_fallback_url');
    await storeConfig(aboutConfig());
    const outside = handoffOf(await html(path, 'en')).handoff.openApp;
    expect(outside.fallback.apkPath).toMatch(/\.apk$/);
  });

  it('words the confirmation in Chinese', async () => {
    await storeConfig(aboutConfig({ mainland: true }));
    const { apkConfirm } = handoffOf(await html(path, 'zh-CN')).handoff;
    expect([apkConfirm.title, apkConfirm.download, apkConfirm.cancel]).toEqual([
      '下载「Pebble 笔记」？',
      '下载',
      '取消',
    ]);
  });
});

describe('pages other than the visitor screens', () => {
  it('carry no about block, filing numbers or confirmation: /test', async () => {
    await storeConfig(aboutConfig({ mainland: true }));
    const page = await html('/test', 'en');
    expect(page).not.toMatch(/about-app|site-filings|beian/);
    expect([handoffOf(page).handoff.about, handoffOf(page).handoff.apkConfirm]).toEqual([null, null]);
  });
});

describe('the version and size defaults', () => {
  it('takes the shown app item’s version, date and size when the about block names none', async () => {
    const config = aboutConfig();
    const about = { ...(config.about as object), version: undefined, version_date: undefined, size: undefined };
    await storeConfig({ ...config, about: JSON.parse(JSON.stringify(about)) });
    const page = markup(await html('/', 'en'));
    const android = DEMO.appData.find((item) => item.plat === 1);
    expect(page).toContain(`<dt>Size</dt><dd>${android?.size}</dd>`);
    expect(page).toContain(`<dt>Version</dt><dd>${android?.version} · `);
  });

  it('takes the uploaded APK’s version and size before the item’s', async () => {
    const config = aboutConfig();
    const about = { ...(config.about as object), version: undefined, version_date: undefined, size: undefined };
    await storeConfig({ ...config, about: JSON.parse(JSON.stringify(about)) });
    const parent = { file: 'pebble-notes-3.0.1.apk', size: 36_200_000, sha256: 'ab'.repeat(32), version: '3.0.1' };
    await env.KV.put(PARENTS_KEY, JSON.stringify({ 'com.pebble.notes': parent }));
    const page = markup(await html('/', 'en'));
    expect(page).toContain('<dt>Version</dt><dd>3.0.1</dd>');
    expect(page).toContain('<dt>Size</dt><dd>36.2 MB</dd>');
  });
});
