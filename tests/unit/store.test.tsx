/** What a page knows (client/app/store.tsx): the hand-off as handed over, and what the browser learns. */
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { createLearnedStore, StoreProvider, useHandoff, useLearned } from '../../client/app/store.tsx';
import type { DeviceInfo } from '../../shared/device.ts';
import type { Handoff } from '../../shared/handoff.ts';

const SERVER_DEVICE = { operatingSystem: 'Android' } as DeviceInfo;
const HANDOFF = { downloadOrigin: 'https://dl.example.com', deviceInfo: SERVER_DEVICE, buildId: 'b1' } as Handoff;
const PROBED = { init: true, url: 'https://dl2.example.com' };

function Reader() {
  const { buildId } = useHandoff();
  return <a href={useLearned().downloadReachable.url}>{buildId}</a>;
}

describe('the learned state', () => {
  it('starts as what the server rendered: its device, the download origin unprobed, no ids, no latest build', () => {
    const learned = createLearnedStore(HANDOFF);
    expect(learned.get()).toEqual({
      deviceInfo: SERVER_DEVICE,
      downloadReachable: { init: false, url: 'https://dl.example.com' },
      identity: { visitorId: null, visitorIdSource: null, fingerprintId: null, fingerprintIdSource: null },
    });
  });

  it('is what hydration reads, whatever the browser learned since', () => {
    const learned = createLearnedStore(HANDOFF);
    learned.update({ downloadReachable: PROBED });
    expect(learned.get().downloadReachable).toEqual(PROBED);
    expect(learned.initial().downloadReachable.url).toBe('https://dl.example.com');
    // React reads the server snapshot while rendering on the server and while hydrating: the page
    // hydrates against the server's markup even when the domain probe answered in the middle.
    const html = renderToString(
      <StoreProvider handoff={HANDOFF} learned={learned}>
        <Reader />
      </StoreProvider>,
    );
    expect(html).toContain('href="https://dl.example.com"');
    expect(html).toContain('>b1<');
    expect(html).not.toContain(PROBED.url);
  });

  it('tells subscribers of every update, until they unsubscribe', () => {
    const learned = createLearnedStore(HANDOFF);
    const listener = vi.fn();
    const unsubscribe = learned.subscribe(listener);
    learned.update({ downloadReachable: PROBED });
    unsubscribe();
    learned.update({ latestBuildId: 'b2' });
    expect(listener).toHaveBeenCalledTimes(1);
    expect(learned.get().latestBuildId).toBe('b2');
  });
});
