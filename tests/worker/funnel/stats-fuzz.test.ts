/**
 * `GET /api/stats` under any query (docs/operators.md#ranges, docs/security.md): every parameter the
 * route reads (`from`, `to`, `by`, `channel`, `inviter`, `link`, `compare`, and `Accept` for CSV) takes
 * random text, dates of any year, numbers, huge values, unicode and broken percent escapes, through
 * the real worker and D1 in workerd. Every answer is a 200 or a 400 whose `error` names the field;
 * never a 5xx, never a hang (a range on 9999-12-31 once looped until the isolate ran out of memory).
 * The property logs its seed (`FC_SEED` replays it).
 */
import { env } from 'cloudflare:workers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readStats } from '../../../worker/funnel/stats-query.ts';
import { DEV_ADMIN_TOKEN } from '../../../worker/settings.ts';
import { fetchWorker } from '../helpers.ts';

const seed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);
const PARAMS = ['from', 'to', 'by', 'channel', 'inviter', 'link', 'compare'] as const;
const FIELD = /^(from|to|by|channel|inviter|link|compare): \S/;
/** Longer than any answer takes: a request still running by then has hung. */
const HANG_MS = 10_000;

const day = (date: Date) => date.toISOString().slice(0, 10);
/** A day near today, where most real ranges are. */
const recent = fc.integer({ min: -400, max: 3 }).map((offset) => day(new Date(Date.now() + offset * 86_400_000)));
const value = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  // Any day of JavaScript's whole range (years -271821 to 275760) and of 0000–9999, written both ways.
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
  fc.date({ min: new Date('0000-01-01'), max: new Date('9999-12-31'), noInvalidDate: true }).map(day),
  fc.date({ min: new Date('1990-01-01'), max: new Date('2040-12-31'), noInvalidDate: true }).map(day),
  recent,
  recent,
  fc.tuple(fc.integer({ min: -99_999, max: 99_999 }), fc.nat(99), fc.nat(99)).map(([y, m, d]) => `${y}-${m}-${d}`),
  fc.oneof(fc.integer(), fc.double(), fc.bigInt()).map(String),
  fc.nat(300_000).map((length) => 'x'.repeat(length)),
  fc.constantFrom(
    '9999-12-31',
    '0000-01-01',
    '+010000-01-01',
    '-000001-12-31',
    '2026-02-30',
    '2024-02-29',
    '',
    'day',
    'channel',
    'plain:inviter',
    'previous',
    'Infinity',
    'NaN',
    '1e309',
    '%',
    '%00',
    '%E0%A4%A',
    '%uD800',
    '\u0000',
    '\uD800',
    '👍🏽',
  ),
);
/** A value written as a browser would (percent-encoded), or raw with only `&` and `#` escaped. */
const written = fc
  .tuple(value, fc.boolean())
  .map(([text, raw]) =>
    raw ? text.replaceAll('&', '%26').replaceAll('#', '%23') : new URLSearchParams({ v: text }).toString().slice(2),
  );
const query = fc.uniqueArray(fc.tuple(fc.constantFrom(...PARAMS), written), {
  selector: ([name]) => name,
  maxLength: PARAMS.length,
});

async function ask(search: string, csv: boolean): Promise<Response> {
  const answer = fetchWorker(`https://lander.test/api/stats?${search}`, {
    headers: { authorization: `Bearer ${DEV_ADMIN_TOKEN}`, ...(csv ? { accept: 'text/csv' } : {}) },
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${HANG_MS} ms to ?${search.slice(0, 200)}`)), HANG_MS);
  });
  try {
    return await Promise.race([answer, hang]);
  } finally {
    clearTimeout(timer);
  }
}

describe('GET /api/stats under any query', () => {
  it('answers 200 or a 400 naming the field, never a 5xx or a hang', { timeout: 240_000 }, async () => {
    const answered = { 200: 0, 400: 0 };
    await fc.assert(
      fc.asyncProperty(query, fc.boolean(), async (pairs, csv) => {
        const search = pairs.map(([name, text]) => `${name}=${text}`).join('&');
        const res = await ask(search, csv);
        const body = await res.text();
        expect([200, 400], `?${search.slice(0, 200)} → ${res.status} ${body.slice(0, 200)}`).toContain(res.status);
        answered[res.status as 200 | 400] += 1;
        if (res.status === 400) {
          const { error } = JSON.parse(body) as { error: string };
          for (const part of error.split('; ')) expect(part).toMatch(FIELD);
        } else if (!csv) {
          const { from, to, rows } = JSON.parse(body) as { from: string; to: string; rows: unknown[] };
          expect(from <= to).toBe(true);
          expect(rows.length).toBeLessThanOrEqual(366);
        }
      }),
      { seed, numRuns: 200 },
    );
    // Both kinds of answer must be reached, or the property tested nothing.
    console.info(
      `fast-check seed ${seed} (replay with FC_SEED=${seed}): 200 × ${answered[200]}, 400 × ${answered[400]}`,
    );
    expect(answered[200]).toBeGreaterThan(10);
  });

  it.each([
    ['from=9999-12-31&to=9999-12-31', 'to: must not be after'],
    ['from=9999-12-31', 'from: must not be after'],
    ['to=9999-12-31&compare=previous', 'to: must not be after'],
    ['from=0000-01-01&to=0000-01-07&compare=previous', 'to: must not be before 2000-01-01'],
    ['from=1999-12-31', 'from: must not be before 2000-01-01'],
  ])('refuses %s with a 400 rather than reading it', async (search, message) => {
    const res = await ask(search, false);
    expect(res.status).toBe(400);
    expect((await res.json<{ error: string }>()).error).toContain(message);
  });

  it('walks the days by count: a daily series of 9999-12-31 alone is one row, not a loop past year 9999', async () => {
    const result = await readStats(env.FUNNEL_DB, 'default', { from: '9999-12-31', to: '9999-12-31', by: 'day' });
    expect(result.rows.map((row) => row.key)).toEqual(['9999-12-31']);
  });
});
