/** The download and open-app links' contract (client/app/download/links.tsx, docs/config.md, docs/screens.md). */

import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { downloadHref, OpenAppLink, readOpenAppLink } from '../../client/app/download/links.tsx';
import type { OpenAppView } from '../../shared/open-app-view.ts';

describe('downloadHref', () => {
  it('serves an APK from the reachable download domain', () => {
    expect(downloadHref({ href: 'https://dl1.test/a.apk', apkPath: '/a.apk' }, 'https://dl2.test')).toBe(
      'https://dl2.test/a.apk',
    );
  });

  it('keeps any other link as the worker decided it', () => {
    expect(downloadHref({ href: 'https://apps.apple.com/app/id1' }, 'https://dl2.test')).toBe(
      'https://apps.apple.com/app/id1',
    );
  });
});

describe('the open-app link', () => {
  const open: OpenAppView = {
    method: 'scheme',
    href: 'lander://open?channel=a',
    fallback: { href: 'https://dl1.test/a.apk', apkPath: '/a.apk' },
    label: 'Open the app',
    installedLabel: null,
    guide: null,
  };

  /** The rendered anchor's data attributes, as the browser's dataset would show them. */
  function dataset(view: OpenAppView): DOMStringMap {
    const html = renderToString(createElement(OpenAppLink, { open: view, className: 'button' }));
    const attributes = [...html.matchAll(/data-(\w+)="([^"]*)"/g)];
    return Object.fromEntries(attributes.map(([, name, value]) => [name, value?.replaceAll('&amp;', '&')]));
  }

  it('reads back the method and the fallback it was rendered with', () => {
    const link = { dataset: dataset(open) } as HTMLAnchorElement;
    expect(readOpenAppLink(link)).toEqual({ method: 'scheme', fallback: open.fallback });
  });

  it('reads back a fallback without an APK, and none at all', () => {
    const store = { ...open, fallback: { href: 'https://apps.apple.com/app/id1' } };
    expect(readOpenAppLink({ dataset: dataset(store) } as HTMLAnchorElement).fallback).toEqual(store.fallback);
    const none = { ...open, method: 'intent' as const, fallback: null };
    expect(readOpenAppLink({ dataset: dataset(none) } as HTMLAnchorElement)).toEqual({
      method: 'intent',
      fallback: null,
    });
  });
});
