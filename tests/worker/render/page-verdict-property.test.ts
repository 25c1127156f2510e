/**
 * A page is a function of the verdict, the language and the page's address (docs/device.md, docs/routes.md),
 * checked over the real-agent corpus (tests/fixtures/ua-corpus.tsv): agents with one verdict and any
 * tracking parameters get the same bytes (the CSP nonce aside); agents with different verdicts get
 * different pages. Property tests log their seed so a failure can be replayed (`FC_SEED`).
 */
import fc from 'fast-check';
import { describe, expect, inject, it } from 'vitest';
import { type Verdict, verdictOf } from '../../../shared/device/verdict.ts';
import { detectDevice } from '../../../shared/device.ts';
import { get } from '../helpers.ts';

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
// Each run is two page requests: enough runs to cover the corpus' verdicts, few enough for a few seconds.
const RUNS = 40;

/** The corpus' agents, grouped by their verdict as the worker detects it (agent only, no client hints). */
const byVerdict = new Map<Verdict, string[]>();
for (const agent of inject('corpusAgents')) {
  const verdict = verdictOf(detectDevice({ userAgent: agent }));
  byVerdict.set(verdict, [...(byVerdict.get(verdict) ?? []), agent]);
}
const groups = [...byVerdict.values()];
const shared = groups.filter((agents) => agents.length >= 2);

const TRACKING_NAMES = ['utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content', 'fbclid', 'gclid'];
const trackingName = fc.oneof(
  fc.constantFrom(...TRACKING_NAMES, 'ttclid'),
  // Unknown names: anything but the parameters a page reads.
  fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/).filter((name) => !['d', 'channel', 'inviter'].includes(name)),
);
/** Tracking parameters with values no other request has. */
const tracking = fc.uniqueArray(fc.tuple(trackingName, fc.uuid()), {
  minLength: 1,
  maxLength: 5,
  selector: ([name]) => name,
});

/** What both requests of a run share: the page, its campaign and the visitor's language. */
const page = fc.record({
  path: fc.constantFrom('/', '/landing'),
  channel: fc.constantFrom(null, 'spring', 'autumn'),
  language: fc.constantFrom('en-US', 'zh-CN,zh;q=0.9', 'fr-FR'),
});

type Page = { path: string; channel: string | null; language: string };

function address({ path, channel }: Page, extra: [string, string][] = [], at = 0): string {
  const params: [string, string][] = [...extra];
  if (channel !== null) params.splice(at % (params.length + 1), 0, ['channel', channel]);
  const query = new URLSearchParams(params).toString();
  return query ? `${path}?${query}` : path;
}

interface Rendered {
  /** The body without this response's nonce, if any: a page that can be kept has none (page-cache.ts). */
  html: string;
  /** The page's id in `Server-Timing`. */
  id: string | undefined;
}

async function render(url: string, userAgent: string, language: string): Promise<Rendered> {
  const res = await get(url, { userAgent, headers: { 'accept-language': language } });
  expect(res.status).toBe(200);
  const nonce = /'nonce-([^']+)'/.exec(res.headers.get('content-security-policy') ?? '')?.[1];
  const body = await res.text();
  const html = nonce ? body.replaceAll(` nonce="${nonce}"`, '') : body;
  return { html, id: /page;desc=([0-9a-z]+)/.exec(res.headers.get('server-timing') ?? '')?.[1] };
}

describe('pages over the real-agent corpus', () => {
  it('has agents that share a verdict and verdicts that differ', () => {
    console.info(
      `${groups.length} verdicts, ${shared.length} of several agents; fast-check seed ${seed} (replay with FC_SEED=${seed})`,
    );
    expect(shared.length).toBeGreaterThan(0);
    expect(groups.length).toBeGreaterThan(1);
  });

  it('gives agents with one verdict the same bytes, whatever tracking parameters each brings', async () => {
    const agentPair = fc
      .constantFrom(...shared)
      .chain((agents) => fc.uniqueArray(fc.constantFrom(...agents), { minLength: 2, maxLength: 2 }));
    await fc.assert(
      fc.asyncProperty(
        agentPair,
        page,
        tracking,
        tracking,
        fc.nat(),
        async ([first = '', second = ''], shape, mine, theirs, at) => {
          const one = await render(address(shape, mine, at), first, shape.language);
          const other = await render(address(shape, theirs, at + 1), second, shape.language);
          expect(other.id).toBe(one.id);
          expect(other.html).toBe(one.html);
        },
      ),
      { numRuns: RUNS, seed },
    );
  });

  it('gives agents with different verdicts different pages', async () => {
    const agentPair = fc
      .uniqueArray(fc.nat({ max: groups.length - 1 }), { minLength: 2, maxLength: 2 })
      .chain(([a = 0, b = 1]) =>
        fc.tuple(fc.constantFrom(...(groups[a] ?? [])), fc.constantFrom(...(groups[b] ?? []))),
      );
    await fc.assert(
      fc.asyncProperty(agentPair, page, async ([first, second], shape) => {
        const one = await render(address(shape), first, shape.language);
        const other = await render(address(shape), second, shape.language);
        expect(one.id).toBeTruthy();
        expect(other.id).not.toBe(one.id);
      }),
      { numRuns: RUNS, seed },
    );
  });
});
