/**
 * The preview card `npm run link -- --card` draws (scripts/lib/link-card.ts, docs/smart-links.md#previews):
 * a 1200×630 PNG of at most 300 kB, with English and Chinese drawn in their own glyphs.
 */
import { readFileSync } from 'node:fs';
import { decode } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { drawCard } from '../../scripts/lib/link-card.ts';

const icon = readFileSync(new URL('../../public/logo.png', import.meta.url));
const card = (title: string, description?: string) => drawCard({ name: 'Pebble Notes', title, description, icon });

describe('a preview card', () => {
  it('is a 1200×630 PNG of at most 300 kB', async () => {
    const png = await card(
      'Notes that stay — 留得住的笔记',
      'Free this week: every theme included. 本周免费，所有主题都有。',
    );
    expect(png.byteLength).toBeLessThanOrEqual(300_000);
    const image = decode(png);
    expect([image.width, image.height]).toEqual([1200, 630]);
  });

  it('draws Chinese in its glyphs: two titles of the same characters in another order differ', async () => {
    // A missing glyph is drawn as one and the same box: the two orders would then be the same image.
    const [one, other] = await Promise.all([card('笔记本'), card('本笔记')]);
    expect(Buffer.from(one).equals(Buffer.from(other))).toBe(false);
  });

  it('keeps a long text to its lines, within the card', async () => {
    const png = await card('长'.repeat(120), 'word '.repeat(60));
    expect(decode(png).height).toBe(630);
  });
});
