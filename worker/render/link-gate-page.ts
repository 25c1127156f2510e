/**
 * The two pages a short link shows instead of its own (docs/smart-links.md#links): "this link has
 * expired" with the app's download below, and the password form. Each shows the app (its name and
 * logo) and nothing of the link's campaign or target: no inviter, no title, no token, no script.
 * Built as strings, in English or Chinese, styled by /link-gate.css (the CSP allows no inline style).
 */
import type { LanderConfig } from '../../shared/config/schema.ts';
import type { Language } from '../../shared/texts.ts';
import { siteMeta } from './site-meta.ts';

const TEXTS = {
  en: {
    expired: 'This link has expired',
    expiredNote: (app: string) => `You can still get ${app}.`,
    download: (app: string) => `Download ${app}`,
    locked: 'This link is protected',
    lockedNote: 'Enter its password to open it.',
    password: 'Password',
    open: 'Open',
    wrong: 'Wrong password. Try again.',
    tooMany: 'Too many tries. Wait a minute, then try again.',
  },
  'zh-CN': {
    expired: '此链接已过期',
    expiredNote: (app: string) => `你仍然可以下载 ${app}。`,
    download: (app: string) => `下载 ${app}`,
    locked: '此链接受密码保护',
    lockedNote: '请输入密码以打开链接。',
    password: '密码',
    open: '打开',
    wrong: '密码错误，请重试。',
    tooMany: '尝试次数过多，请等一分钟后再试。',
  },
} as const;

/** What the password form says under its field: nothing, a wrong password, or too many tries. */
export type FormError = 'wrong' | 'tooMany' | null;

const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function page(language: Language, config: LanderConfig, title: string, body: string): string {
  const app = config.appData[0];
  const name = siteMeta(config, language).name;
  const logo = app?.logo_url ?? '/logo.png';
  return (
    `<!DOCTYPE html><html lang="${language}"><head><meta charset="utf-8">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">' +
    `<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)} – ${escapeHtml(name)}</title>` +
    `<meta property="og:title" content="${escapeHtml(name)}"><link rel="icon" href="/logo.png">` +
    '<link rel="stylesheet" href="/link-gate.css"></head><body><main>' +
    `<img class="logo" src="${escapeHtml(logo)}" alt=""><p class="name">${escapeHtml(name)}</p>${body}</main></body></html>`
  );
}

/** The page of an expired link: what happened, and the app's download at `download`. */
export function expiredPageHtml(language: Language, config: LanderConfig, download: string): string {
  const texts = TEXTS[language];
  const name = siteMeta(config, language).name;
  return page(
    language,
    config,
    texts.expired,
    `<h1>${texts.expired}</h1><p>${escapeHtml(texts.expiredNote(name))}</p>` +
      `<a class="action" href="${escapeHtml(download)}">${escapeHtml(texts.download(name))}</a>`,
  );
}

/** The password form of a protected link, posting to `action`, with `error` under its field. */
export function passwordPageHtml(language: Language, config: LanderConfig, action: string, error: FormError): string {
  const texts = TEXTS[language];
  const message = error ? `<p class="error" id="password-error" role="alert">${texts[error]}</p>` : '';
  const invalid = error ? ' aria-invalid="true" aria-describedby="password-error"' : '';
  return page(
    language,
    config,
    texts.locked,
    `<h1>${texts.locked}</h1><p>${texts.lockedNote}</p>` +
      `<form method="post" action="${escapeHtml(action)}"><label for="password">${texts.password}</label>` +
      `<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="128"${invalid}>` +
      `${message}<button type="submit">${texts.open}</button></form>`,
  );
}
