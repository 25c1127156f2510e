import { describe, expect, it } from 'vitest';
import { chooseRange } from '../../worker/apk/byte-range.ts';

const TAG = '"abc"';
const choose = (range: string | undefined, ifRange?: string) => chooseRange(range, ifRange, TAG, 1000);

describe('which bytes a request asks for', () => {
  it('is the whole file without a Range header', () => {
    expect(choose(undefined)).toEqual({ kind: 'whole' });
  });

  it.each([
    ['bytes=0-99', 0, 100],
    ['bytes=900-', 900, 100],
    ['bytes=-10', 990, 10],
    ['bytes=-5000', 0, 1000],
    ['bytes=990-5000', 990, 10],
    ['BYTES = 5 - 5', 5, 1],
  ])('reads %s as %i (+%i)', (range, offset, length) => {
    expect(choose(range)).toEqual({ kind: 'part', offset, length });
  });

  it.each(['bytes=1000-', 'bytes=5000-6000', 'bytes=-0'])('finds %s unsatisfiable', (range) => {
    expect(choose(range)).toEqual({ kind: 'unsatisfiable' });
  });

  it.each(['bytes=0-1,5-9', 'items=0-9', 'bytes=9-1', 'bytes=-', 'bytes=a-b'])(
    'sends the whole file for %s',
    (range) => {
      expect(choose(range)).toEqual({ kind: 'whole' });
    },
  );

  it('honours the range while If-Range names the ETag', () => {
    expect(choose('bytes=0-9', TAG)).toEqual({ kind: 'part', offset: 0, length: 10 });
  });

  it.each(['"other"', `W/${TAG}`, 'Wed, 21 Oct 2026 07:28:00 GMT'])(
    'sends the whole file when If-Range is %s',
    (ifRange) => {
      expect(choose('bytes=0-9', ifRange)).toEqual({ kind: 'whole' });
    },
  );
});
