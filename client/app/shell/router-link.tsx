/**
 * A link the router follows in the page (a client-side navigation, with the loading bar and the
 * screen's chunk preloaded by client/browser/enhance.ts), as React Router's `<Link>` does for a plain
 * click; any other click (another button, a modifier key for a new tab or window) stays the
 * browser's. `<Link>` itself also brings framework-mode prefetching this app does not use, about
 * 2.9 kB gzip of the first visit's JS (docs/decisions/003-trim-react-router-for-the-js-budget.md).
 */
import type { MouseEvent, ReactNode } from 'react';
import { useHref, useNavigate } from 'react-router-dom';

type Click = Pick<MouseEvent, 'button' | 'metaKey' | 'altKey' | 'ctrlKey' | 'shiftKey' | 'defaultPrevented'>;

/** Whether the router takes `click` over: the main button, no modifier key, not handled already. */
export function isPlainClick(click: Click): boolean {
  return (
    !click.defaultPrevented &&
    click.button === 0 &&
    !click.metaKey &&
    !click.altKey &&
    !click.ctrlKey &&
    !click.shiftKey
  );
}

/**
 * `<a href>` to `to` that a plain click navigates to within the page; the href carries the router's
 * basename, the app's base on a shared host (`/@notes`, docs/routes.md#apps), as `navigate` does.
 */
export function RouterLink({ to, children }: { to: string; children: ReactNode }) {
  const navigate = useNavigate();
  const href = useHref(to);
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    void navigate(to);
  };
  return (
    <a href={href} onClick={onClick}>
      {children}
    </a>
  );
}
