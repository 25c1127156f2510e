/**
 * Mainland China (docs/screens.md#mainland-china): a tap on an APK link shows who makes the app,
 * its version and size, its privacy policy and permissions, with "Download" and "Cancel"; the APK
 * downloads only on "Download". It listens on the document after the page's own listeners, so a tap
 * that an in-app browser's guide already took is left to the guide. Without JavaScript the link
 * downloads on its own tap, beside the same facts on the page (docs/screens.md#mainland-china).
 */
import { useEffect, useRef, useState } from 'react';
import { type ApkConfirmView, CONFIRMED_ATTRIBUTE } from '../../../shared/about-view.ts';

/** The tapped APK link: where it leads and what the attribution watcher reads of it. */
interface Tapped {
  href: string;
  apk: string | undefined;
}

/** Watches taps on APK links and opens the sheet instead of following them. */
function useApkTaps(open: (tapped: Tapped) => void): void {
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || event.button !== 0) return;
      const link =
        event.target instanceof Element ? event.target.closest<HTMLAnchorElement>('a[data-kind="apk"]') : null;
      if (!link || link.hasAttribute(CONFIRMED_ATTRIBUTE)) return;
      event.preventDefault();
      open({ href: link.getAttribute('href') ?? '', apk: link.dataset.apk });
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [open]);
}

export default function ApkConfirm({ confirm }: { confirm: ApkConfirmView }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [tapped, setTapped] = useState<Tapped | null>(null);
  const [open] = useState(() => (next: Tapped) => setTapped(next));
  useApkTaps(open);
  useEffect(() => {
    if (tapped && !dialog.current?.open) dialog.current?.showModal();
  }, [tapped]);
  const close = () => {
    dialog.current?.close();
    setTapped(null);
  };
  return (
    <dialog ref={dialog} className="apk-confirm" aria-labelledby="apk-confirm-title" onClose={() => setTapped(null)}>
      <h2 id="apk-confirm-title">{confirm.title}</h2>
      <dl className="about-facts">
        {confirm.facts.map((fact) => (
          <div key={fact.label}>
            <dt>{fact.label}</dt>
            <dd>{fact.value}</dd>
          </div>
        ))}
      </dl>
      {confirm.privacy ? (
        <p className="about-privacy">
          <a href={confirm.privacy.href} rel="noopener" target="_blank">
            {confirm.privacy.label}
          </a>
        </p>
      ) : null}
      {confirm.permissions.length > 0 ? (
        <section className="about-permissions" aria-label={confirm.permissionsHeading}>
          <h3>{confirm.permissionsHeading}</h3>
          <dl>
            {confirm.permissions.map((p) => (
              <div key={p.name}>
                <dt>{p.name}</dt>
                <dd>{p.purpose}</dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}
      <div className="apk-confirm-actions">
        <button type="button" className="apk-confirm-cancel" onClick={close}>
          {confirm.cancel}
        </button>
        {tapped ? (
          <a
            className="button apk-confirm-download"
            href={tapped.href}
            data-kind="apk"
            data-apk={tapped.apk}
            {...{ [CONFIRMED_ATTRIBUTE]: '' }}
            onClick={() => setTimeout(close, 0)}
          >
            {confirm.download}
          </a>
        ) : null}
      </div>
    </dialog>
  );
}
