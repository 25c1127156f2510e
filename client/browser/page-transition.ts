/**
 * The out-in page transition (docs/routes.md): the current page takes `page-leave-active` and fades
 * out before the router swaps in the next page, which takes `page-enter-active` as it is inserted
 * (a mutation observer runs before the next paint). The first page, painted by the server, never
 * fades in. The CSS drops both with reduced motion, and then there is nothing to wait for.
 */

export const PAGE_LEAVE_CLASS = 'page-leave-active';
export const PAGE_ENTER_CLASS = 'page-enter-active';

/** Longest wait for the fade, should `transitionend` never come (e.g. a hidden tab). */
const LEAVE_TIMEOUT_MS = 300;

const page = () => document.querySelector<HTMLElement>('main.page');

/** Fades the current page out; resolves when it is gone (at once with reduced motion). */
export function leavePage(): Promise<void> {
  const element = page();
  if (!element || matchMedia('(prefers-reduced-motion: reduce)').matches) return Promise.resolve();
  element.classList.add(PAGE_LEAVE_CLASS);
  return new Promise((resolve) => {
    const done = (event?: Event) => {
      if (event && event.target !== element) return;
      clearTimeout(timer);
      element.removeEventListener('transitionend', done);
      resolve();
    };
    const timer = setTimeout(done, LEAVE_TIMEOUT_MS);
    element.addEventListener('transitionend', done);
  });
}

/** Brings the page back when the navigation kept it (same path, or the navigation failed). */
export function stayOnPage(): void {
  page()?.classList.remove(PAGE_LEAVE_CLASS);
}

/** From now on, every page the router inserts enters with `page-enter-active`. */
export function enterNewPages(): void {
  new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (node instanceof HTMLElement && node.matches('main.page')) node.classList.add(PAGE_ENTER_CLASS);
      }
    }
  }).observe(document.body, { childList: true, subtree: true });
}
