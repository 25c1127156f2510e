/**
 * Streaming that cannot break a page: the status is final before the first byte, bots get the
 * complete HTML at once, and a throw inside a streamed Suspense boundary degrades inside the page —
 * the document still ends with `</html>`. The landing screen is replaced here (vi.mock) by one with
 * a Suspense boundary whose content is slow, throws while streaming, or throws at once; nothing of
 * this test screen is in the product.
 */
import { Suspense, use } from 'react';
import '../mock-support.ts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UA } from '../../fixtures/agents.ts';
import { get } from '../helpers.ts';

const state = vi.hoisted(() => ({ mode: 'slow' as 'slow' | 'rejects' | 'throws' }));

// The factory runs when the route first loads its screen (inside a test), so React is imported by then;
// it must be synchronous inside workerd.
vi.mock('../../../client/app/landing/landing-page.tsx', () => {
  function Slow({ data }: { data: Promise<string> }) {
    return <p className="streamed">{use(data)}</p>;
  }
  function Thrower(): never {
    throw new Error('boundary exploded');
  }
  function Component() {
    const data =
      state.mode === 'rejects'
        ? new Promise<string>((_, reject) => setTimeout(() => reject(new Error('stream exploded')), 30))
        : new Promise<string>((resolve) => setTimeout(() => resolve('Streamed content arrived'), 30));
    // React may render this screen again and drop the first promise: its rejection is the boundary's
    // to handle (`use`), never an unhandled one of the test's own making.
    data.catch(() => {});
    return (
      <article className="screen">
        <h1>Shell heading</h1>
        <Suspense fallback={<p className="pending">Waiting for content</p>}>
          {state.mode === 'throws' ? <Thrower /> : <Slow data={data} />}
        </Suspense>
      </article>
    );
  }
  return { Component };
});

afterEach(() => {
  vi.restoreAllMocks();
});

const nonceOf = (res: Response): string =>
  /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1] ?? '';

// Each test asks for its own URL: kept pages are keyed by what the product reads, and the mocked
// screen's mode is not one of those inputs.
describe('streamed rendering', () => {
  it('streams a person the shell first and the boundary later, every inline script with the nonce', async () => {
    state.mode = 'slow';
    const res = await get(`/landing?channel=case-1-${state.mode}`, { userAgent: UA.iPhoneSafari });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Shell heading');
    expect(html).toContain('Waiting for content');
    expect(html).toContain('Streamed content arrived');
    expect(html.indexOf('Waiting for content')).toBeLessThan(html.indexOf('Streamed content arrived'));
    // React's inline script that swaps the boundary in must carry the CSP nonce to run.
    const nonce = nonceOf(res);
    const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*application\/json)([^>]*)>/g)];
    expect(inline.length).toBeGreaterThan(0);
    for (const [, attributes] of inline) expect(attributes).toContain(`nonce="${nonce}"`);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('gives a bot the complete HTML at once: content in place, no fallback, no swap script', async () => {
    state.mode = 'slow';
    const res = await get(`/landing?channel=case-2-${state.mode}`, { userAgent: UA.googlebot });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Streamed content arrived');
    expect(html).not.toContain('Waiting for content');
    expect(html).not.toMatch(/<template id="B:|\$RC\(/);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
  });

  it('keeps the 200 and degrades inside the page when a boundary rejects while streaming', async () => {
    state.mode = 'rejects';
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await get(`/landing?channel=case-3-${state.mode}`, { userAgent: UA.androidChrome });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('Shell heading');
    expect(html).toContain('Waiting for content');
    expect(html).not.toContain('Streamed content arrived');
    expect(html).not.toContain('Internal Server Error');
    expect(html).toContain('id="lander-data"');
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(error).toHaveBeenCalledWith('Render error', expect.any(Error));
  });

  it('keeps the 200 and degrades inside the page when a boundary throws at once', async () => {
    state.mode = 'throws';
    vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const userAgent of [UA.iPhoneSafari, UA.googlebot]) {
      const res = await get(`/landing?channel=case-4-${state.mode}`, { userAgent });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).toContain('Shell heading');
      expect(html).toContain('Waiting for content');
      expect(html.trimEnd().endsWith('</html>')).toBe(true);
    }
  });

  it('decides the status before the first byte: the headers arrive before the slow boundary resolves', async () => {
    state.mode = 'slow';
    const started = performance.now();
    const res = await get(`/landing?channel=case-5-${state.mode}`, { userAgent: UA.iPhoneSafari });
    const headersAfter = performance.now() - started;
    expect(res.status).toBe(200);
    await res.text();
    const bodyAfter = performance.now() - started;
    // The boundary takes 30 ms; the response (status and headers) was there before it finished.
    expect(bodyAfter - headersAfter).toBeGreaterThanOrEqual(20);
  });
});
