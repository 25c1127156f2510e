/**
 * A page complete at once is rendered to a string (worker/render/render-complete.ts), and that string
 * is the document React's streaming renderer makes of the same tree — doctype, the entry's preload
 * and module script, React's markers — for every page kind, verdict and language the tests know. The
 * real route builds each page; the module is wrapped only to keep the tree it was given, which the
 * test then streams with `renderToReadableStream`, as the worker did before (the nonce taken out).
 */
import '../mock-support.ts';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env, exports } from 'cloudflare:workers';
import type { ReactNode } from 'react';
import { createElement, Suspense, use } from 'react';
import { preloadModule } from 'react-dom';
import { describe, expect, it, vi } from 'vitest';
import { encryptToken } from '../../../worker/campaign/token.ts';
import { renderComplete } from '../../../worker/render/render-complete.ts';
import { DEV_ADMIN_TOKEN, DEV_DECODE_KEY } from '../../../worker/settings.ts';
import { AGENTS } from '../../fixtures/agents.ts';
import { ORIGIN } from '../helpers.ts';

const calls = vi.hoisted(
  () => [] as { node: unknown; entry: string; complete: ((nonce?: string) => string) | undefined }[],
);

vi.mock('../../../worker/render/render-complete.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../../worker/render/render-complete.ts')>();
  return {
    ...original,
    renderComplete(node: ReactNode, entry: string) {
      const complete = original.renderComplete(node, entry);
      calls.push({ node, entry, complete });
      return complete;
    },
  };
});

const NONCE = 'test-nonce';

// The worker's modules are loaded before this file's mocks are made: a fresh copy of them (and of
// React's server renderer, so that both use one React) is loaded for the comparison, the wrapper in it.
async function freshWorker() {
  vi.resetModules();
  const [{ default: worker }, server] = await Promise.all([
    import('../../../worker/index.ts'),
    import('react-dom/server'),
  ]);
  return { worker, server };
}

interface Rendered {
  res: Response;
  html: string;
  /** The render to a string, written with `nonce` or without one. */
  complete: ((nonce?: string) => string) | undefined;
  /** The same tree streamed with `NONCE`, as the worker did before. */
  streamed: string;
}

/** The page at `path` as `agent` asking in `language` gets it, and that page's tree streamed. */
async function render(
  fresh: Awaited<ReturnType<typeof freshWorker>>,
  path: string,
  agent: string,
  language: string,
): Promise<Rendered> {
  const before = calls.length;
  const ctx = createExecutionContext();
  const request = new Request(`${ORIGIN}${path}`, { headers: { 'user-agent': agent, 'accept-language': language } });
  const res = await fresh.worker.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  const html = await res.text();
  const call = calls[before];
  if (!call || calls.length !== before + 1) throw new Error(`${path}: rendered ${calls.length - before} times`);
  const stream = await fresh.server.renderToReadableStream(call.node as ReactNode, {
    nonce: NONCE,
    bootstrapModules: [call.entry],
  });
  await stream.allReady;
  return { res, html, complete: call.complete, streamed: await new Response(stream).text() };
}

const nonceOf = (res: Response): string =>
  /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1] ?? '';

async function shortLink(): Promise<string> {
  const res = await exports.default.fetch(
    new Request(`${ORIGIN}/api/links`, {
      method: 'POST',
      headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ channel: 'render-complete', inviter: 'Ann Lee' }),
    }),
  );
  expect(res.status).toBe(201);
  return ((await res.json()) as { slug: string }).slug;
}

const pending = new Promise<string>(() => {});

/** Asks for the entry's preload, as the page's `Preload` does. */
function Entry() {
  preloadModule('/entry.js', { as: 'script' });
  return null;
}

function Waits(): ReactNode {
  return createElement('p', null, use(pending));
}

function Fails(): ReactNode {
  throw new Error('boundary failed');
}

describe('a page complete at once, rendered to a string', () => {
  it('is the document the streaming renderer makes, for every page kind, verdict and language', async () => {
    const d = await encryptToken(JSON.stringify({ channel: 'spring', inviter: 'Ann <b>Lee</b>' }), DEV_DECODE_KEY);
    const slug = await shortLink();
    const paths = [
      '/',
      '/?inviter=Bo',
      '/landing',
      `/landing?d=${d}`,
      `/i/Hq3x0v9gLwA8c2m5Yb7TnQ.${d}`,
      `/s/${slug}`,
      '/test',
      '/admin',
      '/no-such-page?x=<script>',
    ];
    const fresh = await freshWorker();
    let compared = 0;
    for (const [name, { agent }] of Object.entries(AGENTS)) {
      for (const language of ['en', 'zh-CN']) {
        for (const path of paths) {
          // A new channel per agent and language: each request is a render, never a kept page.
          const unique = `${path}${path.includes('?') ? '&' : '?'}channel=${name}-${language}`;
          const page = await render(fresh, unique, agent, language);
          const label = `${name} ${language} ${unique}`;
          if (!page.complete) throw new Error(`${label}: not rendered complete`);
          expect(page.complete(NONCE), label).toBe(page.streamed);
          // Kept without a nonce: the streamed page with its nonce taken out, as it was kept before.
          expect(page.complete(), label).toBe(page.streamed.replaceAll(` nonce="${NONCE}"`, ''));
          // The visitor gets it as it is kept (no nonce), or with the response's own nonce where it
          // is never kept. Where the render is an error page, a bot gets the metadata page instead
          // (docs/routes.md).
          const forBot = page.res.status < 400 && page.complete().includes('class="error-page"');
          if (!forBot) expect(page.html, label).toBe(page.complete(nonceOf(page.res)));
          compared += 1;
        }
      }
    }
    expect(compared).toBe(Object.keys(AGENTS).length * 2 * paths.length);
    // Hundreds of renders, each twice: longer than one page's test on a busy machine.
  }, 180_000);

  it("writes only a plain nonce into the entry's tags", () => {
    const complete = renderComplete(
      createElement('html', null, createElement('body', null, createElement(Entry))),
      '/entry.js',
    );
    expect(complete?.('abc+/=')).toContain('<script type="module" src="/entry.js" nonce="abc+/=" id="_R_" async="">');
    expect(complete?.('a"b')).not.toContain('nonce');
  });

  it('leaves a document that suspends or fails in a boundary to the streaming renderer', () => {
    const page = (child: ReactNode, boundary = true) =>
      createElement(
        'html',
        null,
        createElement(
          'body',
          null,
          createElement(Entry),
          boundary ? createElement(Suspense, { fallback: 'wait' }, child) : child,
        ),
      );
    const ready = renderComplete(page(createElement('p', null, 'ready')), '/entry.js');
    expect(ready?.()).toMatch(/^<!DOCTYPE html>.*ready/);
    expect(renderComplete(page(createElement(Waits)), '/entry.js')).toBeUndefined();
    expect(renderComplete(page(createElement(Fails)), '/entry.js')).toBeUndefined();
    expect(renderComplete(page(createElement(Waits), false), '/entry.js')).toBeUndefined();
    expect(renderComplete(page(createElement(Fails), false), '/entry.js')).toBeUndefined();
  });
});
