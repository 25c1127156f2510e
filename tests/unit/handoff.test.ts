import { describe, expect, it } from 'vitest';
import type { DownloadView } from '../../shared/download-view.ts';
import { type ClientStore, type Handoff, parseHandoff, serializeHandoff } from '../../shared/handoff.ts';

const SRC = 'data:image/bmp;base64,Qk0=';

function handoffWith(qr: DownloadView['qr']): Handoff {
  const download = { layout: 'PC', qr } as DownloadView;
  return {
    store: { language: 'en', download } as ClientStore,
    hydration: { loaderData: {}, actionData: null, errors: null },
  };
}

describe('the hand-off', () => {
  const qr = { src: SRC, size: 200, heading: 'Scan', caption: 'c', alt: 'QR', url: 'https://lander.test/' };

  it('leaves the QR image out: the page carries it once, in its <img>', () => {
    const text = serializeHandoff(handoffWith(qr));
    expect(text).not.toContain('base64');
    expect(JSON.parse(text).store.download.qr).toEqual({ ...qr, src: '' });
  });

  it('takes the QR image back from the page when read', () => {
    expect(parseHandoff(serializeHandoff(handoffWith(qr)), SRC).store.download.qr).toEqual(qr);
  });

  it('leaves a page without a QR code as it is', () => {
    const handoff = handoffWith(null);
    expect(parseHandoff(serializeHandoff(handoff), null)).toEqual(handoff);
  });

  it('does not change the value it writes', () => {
    const handoff = handoffWith(qr);
    serializeHandoff(handoff);
    expect(handoff.store.download.qr?.src).toBe(SRC);
  });
});
