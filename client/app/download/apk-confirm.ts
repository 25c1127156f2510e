/**
 * Mainland China (docs/screens.md#mainland-china): a tap on an APK link shows who makes the app,
 * its version and size, its privacy policy and permissions, with "Download" and "Cancel"; the APK
 * downloads only on "Download". Started after hydration (client/browser/enhance.ts) and written
 * with the DOM alone, so neither React nor this file weighs on the initial JavaScript. It listens on
 * the document after the page's own listeners: a tap an in-app browser's guide already took is left
 * to the guide. Without JavaScript the link downloads on its own tap, beside the same facts.
 */
import { type ApkConfirmView, CONFIRMED_ATTRIBUTE } from '../../../shared/about-view.ts';

/** An element with a class and text; children appended. */
function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text = '', ...children: Node[]) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text) node.textContent = text;
  node.append(...children);
  return node;
}

/** A `<dl>` of labelled pairs. */
function pairs(className: string, items: [string, string][]): HTMLDListElement {
  return el(
    'dl',
    className,
    '',
    ...items.map(([term, detail]) => el('div', '', '', el('dt', '', term), el('dd', '', detail))),
  );
}

/** The sheet's `<dialog>`, its Download link (whose href each tap sets) and Cancel. */
function sheet(confirm: ApkConfirmView) {
  const download = el('a', 'button apk-confirm-download', confirm.download);
  download.dataset.kind = 'apk';
  download.setAttribute(CONFIRMED_ATTRIBUTE, '');
  const cancel = el('button', 'apk-confirm-cancel', confirm.cancel);
  cancel.type = 'button';
  const title = el('h2', '', confirm.title);
  title.id = 'apk-confirm-title';
  const parts: Node[] = [
    title,
    pairs(
      'about-facts',
      confirm.facts.map((f) => [f.label, f.value]),
    ),
  ];
  if (confirm.privacy) {
    const link = el('a', '', confirm.privacy.label);
    Object.assign(link, { href: confirm.privacy.href, rel: 'noopener', target: '_blank' });
    parts.push(el('p', 'about-privacy', '', link));
  }
  if (confirm.permissions.length > 0) {
    const list = pairs(
      '',
      confirm.permissions.map((p) => [p.name, p.purpose]),
    );
    parts.push(el('section', 'about-permissions', '', el('h3', '', confirm.permissionsHeading), list));
  }
  parts.push(el('div', 'apk-confirm-actions', '', cancel, download));
  const dialog = el('dialog', 'apk-confirm', '', ...parts);
  dialog.setAttribute('aria-labelledby', title.id);
  return { dialog, download, cancel };
}

/** Puts the sheet in the page and confirms every later tap on an APK link with it. */
export function watchApkTaps(confirm: ApkConfirmView): void {
  const { dialog, download, cancel } = sheet(confirm);
  document.body.append(dialog);
  cancel.addEventListener('click', () => dialog.close());
  // Closed once the tap has been followed (the attribution watcher reads the link first).
  download.addEventListener('click', () => setTimeout(() => dialog.close(), 0));
  document.addEventListener('click', (event) => {
    if (event.defaultPrevented || event.button !== 0) return;
    const link = event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[data-kind="apk"]') : null;
    if (!link || link.hasAttribute(CONFIRMED_ATTRIBUTE)) return;
    event.preventDefault();
    download.href = link.getAttribute('href') ?? '';
    if (link.dataset.apk) download.dataset.apk = link.dataset.apk;
    else delete download.dataset.apk;
    dialog.showModal();
  });
}
