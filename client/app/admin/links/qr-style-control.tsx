/**
 * The links room's QR code style (docs/operators.md#qr-code-styles): foreground and background
 * colours, the app's logo and the quiet zone, with a preview. What is typed is applied only when the
 * worker would draw it (shared/qr-style.ts): a pair with too little contrast is said so and the last
 * good style stays, so every download the room offers is a style that scans.
 */
import { useId, useState } from 'react';
import {
  colourProblem,
  contrastRatio,
  MIN_QR_CONTRAST,
  QR_MARGIN,
  type QrStyle,
  qrStyleQuery,
} from '../../../../shared/qr-style.ts';
import type { LinkView } from './links-api.ts';
import type { LinksTexts } from './links-texts.ts';

/** `link`'s QR code URLs in `style`: the SVG (also the preview) and the PNG. */
export function styledQrUrls(link: LinkView, style: QrStyle): { svg: string; png: string } {
  return { svg: `${link.qr}${qrStyleQuery(style, 'svg')}`, png: `${link.qrPng}${qrStyleQuery(style, 'png')}` };
}

export function QrStyleControl({
  style,
  onChange,
  preview,
  t,
}: {
  /** The style applied to every link's code. */
  style: QrStyle;
  onChange: (style: QrStyle) => void;
  /** The link whose code previews the style, if any. */
  preview: LinkView | undefined;
  t: LinksTexts;
}) {
  const [draft, setDraft] = useState(style);
  const id = useId();
  const problem = colourProblem(draft.fg, draft.bg);
  const change = (next: Partial<QrStyle>) => {
    const changed = { ...draft, ...next };
    setDraft(changed);
    const margin = changed.margin >= QR_MARGIN.min && changed.margin <= QR_MARGIN.max;
    if (margin && colourProblem(changed.fg, changed.bg) === null) onChange(changed);
  };
  return (
    <fieldset className="qr-style" aria-describedby={problem ? `${id}-problem` : undefined}>
      <legend>{t.qrStyle}</legend>
      <div className="qr-style-fields">
        <label>
          {t.qrForeground}
          <input type="color" value={draft.fg} onChange={(event) => change({ fg: event.currentTarget.value })} />
        </label>
        <label>
          {t.qrBackground}
          <input type="color" value={draft.bg} onChange={(event) => change({ bg: event.currentTarget.value })} />
        </label>
        <label>
          {t.qrMargin}
          <input
            type="number"
            min={QR_MARGIN.min}
            max={QR_MARGIN.max}
            value={draft.margin}
            onChange={(event) => change({ margin: Number(event.currentTarget.value) })}
          />
        </label>
        <label className="qr-style-logo">
          <input
            type="checkbox"
            checked={draft.logo}
            onChange={(event) => change({ logo: event.currentTarget.checked })}
          />
          {t.qrLogo}
        </label>
      </div>
      {problem ? (
        <p className="error" role="alert" id={`${id}-problem`}>
          {problem.startsWith('fg: must be darker')
            ? t.qrLighter
            : t.qrContrast(contrastRatio(draft.fg, draft.bg).toFixed(1), MIN_QR_CONTRAST)}
        </p>
      ) : null}
      {preview ? (
        <img
          className="qr-style-preview"
          src={styledQrUrls(preview, style).svg}
          alt={`${t.qrPreview} /s/${preview.slug}`}
          width={120}
          height={120}
        />
      ) : null}
    </fieldset>
  );
}
