/**
 * The out half of the out-in page transition (PRODUCT.md §2): the current page takes the
 * `page-leave-active` class and fades out before the router swaps in the next page, which then
 * enters with `page-enter-active` (see the layout). With reduced motion there is nothing to wait for.
 */

export const PAGE_LEAVE_CLASS = 'page-leave-active';

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
