/** The client store (client/app/store.tsx): what hydration reads, and what later renders read. */
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { createStore, StoreProvider, useStore } from '../../client/app/store.tsx';
import type { ClientStore } from '../../shared/handoff.ts';

const SERVER = { init: false, url: 'https://dl.example.com' };
const PROBED = { init: true, url: 'https://dl2.example.com' };

function Reader() {
  return <a href={useStore().downloadReachable.url}>Download</a>;
}

describe('client store', () => {
  it('keeps the state it was created with for hydration, whatever updates came since', () => {
    const store = createStore({ downloadReachable: SERVER } as ClientStore);
    store.update({ downloadReachable: PROBED });
    expect(store.get().downloadReachable).toEqual(PROBED);
    expect(store.initial().downloadReachable).toEqual(SERVER);
    // React reads the server snapshot while rendering on the server and while hydrating: the page
    // hydrates against the server's markup even when the domain probe answered in the middle.
    const html = renderToString(
      <StoreProvider store={store}>
        <Reader />
      </StoreProvider>,
    );
    expect(html).toContain(SERVER.url);
    expect(html).not.toContain(PROBED.url);
  });

  it('tells subscribers of every update, until they unsubscribe', () => {
    const store = createStore({ downloadReachable: SERVER } as ClientStore);
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.update({ downloadReachable: PROBED });
    unsubscribe();
    store.update({ downloadReachable: SERVER });
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
