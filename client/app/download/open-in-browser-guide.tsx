/**
 * The full-screen guide for in-app browsers that block downloads or app schemes (docs/screens.md): it points at
 * the app's menu at the top right and says to open the page in the system browser. Loaded only
 * where it can be needed, after hydration; dismissed by its button, a tap anywhere or Escape.
 */
import { useEffect, useRef } from 'react';
import type { GuideView } from '../../../shared/download-view.ts';

export interface GuideProps {
  guide: GuideView;
  onClose: () => void;
}

export default function OpenInBrowserGuide({ guide, onClose }: GuideProps) {
  const closeButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    closeButton.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div className="guide" role="dialog" aria-modal="true" aria-labelledby="guide-title">
      <button type="button" className="guide-backdrop" tabIndex={-1} aria-hidden="true" onClick={onClose} />
      <span className="guide-arrow" aria-hidden="true" />
      <div className="guide-card">
        <h2 id="guide-title">{guide.title}</h2>
        <ol>
          {guide.steps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        <button type="button" className="button" ref={closeButton} onClick={onClose}>
          {guide.close}
        </button>
      </div>
    </div>
  );
}
