/**
 * The download buttons (docs/screens.md): a phone's one primary button, or the desktop's QR code
 * and both store buttons. An APK link follows the reachable download domain (docs/config.md) as the browser
 * finds it; only the `href` changes, so nothing moves.
 */
import type { MouseEvent } from 'react';
import { type DownloadButton, type DownloadView, QR_CLASS } from '../../../shared/download-view.ts';
import { useStore } from '../store.tsx';

interface ActionsProps {
  view: DownloadView;
  /** Set when this in-app browser blocks downloads: a tap shows the guide instead. */
  onBlocked?: () => void;
}

function DownloadLink({
  button,
  className,
  onBlocked,
}: { button: DownloadButton; className: string } & Pick<ActionsProps, 'onBlocked'>) {
  const { downloadReachable } = useStore();
  const href = button.apkPath ? `${downloadReachable.url}${button.apkPath}` : button.href;
  const onClick = onBlocked
    ? (event: MouseEvent) => {
        event.preventDefault();
        onBlocked();
      }
    : undefined;
  return (
    <a className={className} href={href} data-kind={button.kind} onClick={onClick}>
      {button.label}
    </a>
  );
}

/** The phone's single button, or the reason there is none. */
export function PrimaryAction({ view, onBlocked }: ActionsProps) {
  if (view.primary) {
    return <DownloadLink button={view.primary} className="button button-primary" onBlocked={onBlocked} />;
  }
  return view.note ? <p className="download-note">{view.note}</p> : null;
}

/**
 * The desktop panel: the QR code of this page, made on the worker (an image of modules only), and
 * both store buttons. On a touch screen (an iPad that reports a Mac agent) CSS hides the code.
 */
export function QrPanel({ view, onBlocked }: ActionsProps) {
  return (
    <aside className="download-qr">
      {view.qr ? (
        <>
          <h2 className="qr-text">{view.qr.heading}</h2>
          <img
            className={QR_CLASS}
            src={view.qr.src}
            width={view.qr.size}
            height={view.qr.size}
            alt={view.qr.alt}
            data-url={view.qr.url}
          />
          <p className="qr-text qr-caption">{view.qr.caption}</p>
        </>
      ) : null}
      <div className="store-buttons">
        {view.stores.map((store) => (
          <DownloadLink key={store.kind} button={store} className="button button-store" onBlocked={onBlocked} />
        ))}
      </div>
    </aside>
  );
}
