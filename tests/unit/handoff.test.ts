import { describe, expect, it } from 'vitest';
import type { DownloadView } from '../../shared/download-view.ts';
import { type Handoff, type HandoffBlock, parseHandoff, serializeHandoff } from '../../shared/handoff.ts';

const SRC = 'data:image/bmp;base64,Qk0=';

function handoffWith(qr: DownloadView['qr']): HandoffBlock {
  const download = { layout: 'PC', qr } as DownloadView;
  return {
    handoff: { language: 'en', download } as Handoff,
    hydration: { loaderData: {}, actionData: null, errors: null },
  };
}

describe('the hand-off', () => {
  const qr = { src: SRC, size: 200, heading: 'Scan', caption: 'c', alt: 'QR', url: 'https://lander.test/' };

  it('leaves the QR image out: the page carries it once, in its <img>', () => {
    const text = serializeHandoff(handoffWith(qr));
    expect(text).not.toContain('base64');
    expect(JSON.parse(text).handoff.download.qr).toEqual({ ...qr, src: '' });
  });

  it('takes the QR image back from the page when read', () => {
    expect(parseHandoff(serializeHandoff(handoffWith(qr)), SRC).handoff.download.qr).toEqual(qr);
  });

  it('leaves a page without a QR code as it is', () => {
    const handoff = handoffWith(null);
    expect(parseHandoff(serializeHandoff(handoff), null)).toEqual(handoff);
  });

  it('does not change the value it writes', () => {
    const handoff = handoffWith(qr);
    serializeHandoff(handoff);
    expect(handoff.handoff.download.qr?.src).toBe(SRC);
  });

  it('refuses a page without a block, or with a block missing either part', () => {
    for (const text of [
      null,
      '',
      'null',
      '5',
      '[]',
      '{"handoff":{}}',
      '{"handoff":null,"hydration":{}}',
      '{"hydration":{}}',
    ]) {
      expect(() => parseHandoff(text), String(text)).toThrow('no valid hand-off data');
    }
  });
});
