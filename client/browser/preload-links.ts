/**
 * Route preloading (docs/builds.md): a link to a screen of this app loads that screen's chunk as
 * soon as it becomes visible, or is hovered, focused or touched — so the click finds it loaded.
 * Links added later (new screens, content) are picked up too. At most 4 preloads pend at once.
 */
import { createPreloadQueue, type PreloadQueue } from './preload-queue.ts';
import { type RouteTable, screenFor } from './screens.ts';

const LINKS = 'a[href]';

export function preloadLinks(table: RouteTable, queue: PreloadQueue = createPreloadQueue()): void {
  function preload(link: HTMLAnchorElement): void {
    if (link.target && link.target !== '_self') return;
    if (link.hasAttribute('download')) return;
    const url = new URL(link.href, location.href);
    if (url.origin !== location.origin) return;
    const screen = screenFor(table, url.pathname);
    if (screen) queue.add(screen.id, screen.load);
  }

  const visibility = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting || !(entry.target instanceof HTMLAnchorElement)) continue;
      visibility.unobserve(entry.target);
      preload(entry.target);
    }
  });
  const watch = (root: Element | Document) => {
    if (root instanceof HTMLAnchorElement && root.hasAttribute('href')) visibility.observe(root);
    for (const link of root.querySelectorAll(LINKS)) visibility.observe(link);
  };

  watch(document);
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) if (node instanceof Element) watch(node);
    }
  }).observe(document.body, { childList: true, subtree: true });

  const onIntent = (event: Event) => {
    const link = event.target instanceof Element ? event.target.closest(LINKS) : null;
    if (link instanceof HTMLAnchorElement) preload(link);
  };
  for (const type of ['pointerover', 'focusin', 'touchstart']) {
    document.addEventListener(type, onIntent, { capture: true, passive: true });
  }
}
