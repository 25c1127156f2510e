/**
 * A page's headers (docs/routes.md): every page is a complete response, built with every header in
 * place (lib/headers.ts), and says in `Server-Timing` whether it was kept by this isolate (decision
 * 005), by another isolate of the location (decision 010), or rendered.
 */
import { answerHeaders, complete, contentSecurityPolicy, NONCE_FREE_CSP } from '../lib/headers.ts';
import type { LocationPage } from './location-pages.ts';
import type { KeptPage } from './page-cache.ts';

/** Whether a page was kept by this isolate, kept by another of the location, or rendered. */
export type KeptState = 'hit' | 'shared' | 'miss';

/** The `Server-Timing` of a page that can be kept: how it was answered and which kind of page it is (`pageId`). */
export const timing = (state: KeptState, id: string): [string, string] => [
  'server-timing',
  `kept;desc=${state}, page;desc=${id}`,
];

/** The headers of a page with no nonce, `Server-Timing` aside: the same for every such page, made once. */
export const PAGE_HEADERS: readonly [string, string][] = answerHeaders(
  [
    ['content-type', 'text/html; charset=utf-8'],
    ['cache-control', 'private, no-cache'],
  ],
  NONCE_FREE_CSP,
);

// PAGE_HEADERS as one `Headers`, made once: a response or a kept page copies it natively, where a
// list of pairs is read and checked pair by pair on every request.
const PAGE_HEADER_SET = new Headers(PAGE_HEADERS);

/**
 * The headers of a page with no nonce (a kept page, a page rendered complete: render-complete.ts),
 * saying in `Server-Timing` how it was answered (`state`) and which kind of page it is (`id`).
 */
export function nonceFreeHeaders(state: KeptState, id: string): Headers {
  const headers = new Headers(PAGE_HEADER_SET);
  headers.set(...timing(state, id));
  return headers;
}

/**
 * A page's headers: its CSP (with the nonce of a page that streams inline scripts) and, for a page the
 * cache can keep, whether it was kept (decision 005, decision 010) and which kind of page it is
 * (`pageId`) in `Server-Timing`, for load tools and DevTools.
 */
export function pageHeaders(nonce?: string, kept?: { state: KeptState; id: string }): [string, string][] {
  const headers = nonce
    ? PAGE_HEADERS.map(([name, value]): [string, string] =>
        name === 'content-security-policy' ? [name, contentSecurityPolicy(nonce)] : [name, value],
      )
    : [...PAGE_HEADERS];
  if (kept) headers.push(timing(kept.state, kept.id));
  return headers;
}

/** What the location keeps of a kept page: the same, `Server-Timing` aside (it is per response). */
export function sharedPage({ status, body, view }: KeptPage): LocationPage {
  return { status, body, view, headers: [...PAGE_HEADERS] };
}

/** A complete HTML response (lib/headers.ts): no middleware adds headers to it. */
export function html(body: BodyInit, status: number, headers: HeadersInit = pageHeaders()): Response {
  return complete(new Response(body, { status, headers }));
}
