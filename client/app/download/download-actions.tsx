/**
 * The download buttons (docs/screens.md): a phone's one primary button, or the desktop's QR code
 * and both store buttons.
 */
import type { MouseEventHandler } from 'react';
import type { DownloadView } from '../../../shared/download-view.ts';
import { DownloadLink, QrImage } from './links.tsx';

interface ActionsProps {
  view: DownloadView;
  /** Set when this in-app browser blocks downloads: a tap shows the guide instead (useBlockedTaps, links.tsx). */
  onBlocked?: MouseEventHandler<HTMLAnchorElement> | undefined;
}

/** The phone's single button, or the reason there is none. */
export function PrimaryAction({ view, onBlocked }: ActionsProps) {
  if (view.primary) {
    return <DownloadLink button={view.primary} className="button button-primary" onClick={onBlocked} />;
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
          <QrImage qr={view.qr} />
          <p className="qr-text qr-caption">{view.qr.caption}</p>
        </>
      ) : null}
      <div className="store-buttons">
        {view.stores.map((store) => (
          <DownloadLink key={store.kind} button={store} className="button button-store" onClick={onBlocked} />
        ))}
      </div>
    </aside>
  );
}
