/**
 * Production never shows a visitor the bundled demo (docs/config.md#production): when the worker has
 * no usable configuration of the operator's, pages and `/.well-known` answer a plain 503 page in both
 * languages instead — no store link, no app id, nothing of the demo's. Development keeps serving the
 * demo, so a fresh checkout shows a complete page.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env.ts';
import { settingsOf } from '../settings.ts';
import type { ConfigFallbackReason } from './load-config.ts';

/** How long a visitor's browser waits before asking again when KV itself failed. */
const RETRY_AFTER_SECONDS = '5';

/** The page's texts: what is wrong, said in both languages on the same page (no language guess needed). */
function texts(reason: ConfigFallbackReason): { en: string; zh: string } {
  return reason === 'kv-error' || reason === 'kv-timeout'
    ? { en: 'This page is unavailable for a moment. Please try again shortly.', zh: '页面暂时无法打开，请稍后再试。' }
    : { en: 'This page is not configured yet.', zh: '此页面尚未配置。' };
}

/** The 503 page for `reason`: no script, no image, no link. */
export function notConfiguredPage(reason: ConfigFallbackReason): string {
  const { en, zh } = texts(reason);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="robots" content="noindex"><title>Not available · 暂不可用</title></head><body><main><p>${en}</p><p lang="zh-CN">${zh}</p></main></body></html>`;
}

/** Answers 503 instead of a demo page when production has no configuration of its own. */
export function configuredOnly(): MiddlewareHandler<AppEnv> {
  return async function configuredOnlyMiddleware(c, next) {
    const { fallback } = c.get('config');
    if (!fallback || settingsOf(c.env).env !== 'production') return next();
    c.header('cache-control', 'no-store');
    if (fallback === 'kv-error' || fallback === 'kv-timeout') c.header('retry-after', RETRY_AFTER_SECONDS);
    return c.html(notConfiguredPage(fallback), 503);
  };
}
