/**
 * The short links (docs/operators.md#the-console): a form that creates one (channel, inviter, an
 * optional slug) and the table of links, each with its short URL to copy, its views, taps and
 * attributed installs in the console's range (`/api/stats?by=link`), its experiment's verdict
 * (experiments.tsx) and its variants to edit (variants-editor.tsx), its expiry (changed in place,
 * read and shown in the operator's zone), its password and rules (link-access.tsx), its preview
 * (link-preview-editor.tsx) and its QR code to download as PNG or SVG, in the style
 * chosen above the table (qr-style-control.tsx).
 */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import type { StatsRow } from '../../../../shared/admin-contract.ts';
import { MAX_LINK_FIELD, SLUG_PATTERN } from '../../../../shared/admin-contract.ts';
import { PLAIN_QR_STYLE, type QrStyle } from '../../../../shared/qr-style.ts';
import type { ExperimentView } from '../../../../shared/variants.ts';
import { errorText, type Range } from '../shared/admin-client.ts';
import { DataTable } from '../shared/data-table.tsx';
import type { Opener } from '../shared/drill-down.ts';
import { ErrorAlert } from '../shared/error-alert.tsx';
import { instantIn, localInputIn, timeIn } from '../shared/zoned-time.ts';
import { ExperimentCell, useExperiments } from './experiments.tsx';
import { PasswordControl, RulesEditor } from './link-access.tsx';
import { PreviewEditor } from './link-preview-editor.tsx';
import { LinkSource } from './link-source.tsx';
import type { LinksApi, LinkView } from './links-api.ts';
import type { LinksTexts } from './links-texts.ts';
import { QrStyleControl, styledQrUrls } from './qr-style-control.tsx';
import { VariantsEditor } from './variants-editor.tsx';

/** Whether `link` is past its expiry: its page and its QR code are gone (`/s/<slug>.svg` answers 404). */
function expired(link: LinkView): boolean {
  return link.expiresAt !== null && Date.parse(link.expiresAt) <= Date.now();
}

function CopyButton({ text, t }: { text: string; t: LinksTexts }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <button type="button" className="small" onClick={copy}>
      {copied ? t.copied : t.copy}
    </button>
  );
}

/** A link's expiry as shown, in `zone`; changed in place with a time read in `zone` (without `onChanged`, only said). */
function Expiry({
  api,
  link,
  zone,
  t,
  onChanged,
}: {
  api: LinksApi;
  link: LinkView;
  zone: string;
  t: LinksTexts;
  /** The link as the API answers it after a change; absent for an operator who may not change links. */
  onChanged?: (link: LinkView) => void;
}) {
  const [editing, setEditing] = useState(false);
  const [error, setError] = useState('');
  const save = async (expiresAt: string | null) => {
    setError('');
    try {
      onChanged?.(await api.setLinkExpiry(link.slug, expiresAt));
      setEditing(false);
    } catch (failure) {
      setError(errorText(failure, t));
    }
  };
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const local = String(new FormData(event.currentTarget).get('expiresAt') ?? '');
    if (local) void save(new Date(instantIn(zone, local)).toISOString());
  };
  const past = expired(link);
  return (
    <div className="expiry">
      {editing ? (
        <form className="expiry-form" onSubmit={submit}>
          <input
            type="datetime-local"
            name="expiresAt"
            required
            aria-label={`${t.expires} /s/${link.slug} (${zone})`}
            defaultValue={link.expiresAt ? localInputIn(zone, link.expiresAt) : ''}
          />
          <div className="row-actions">
            <button type="submit" className="small primary">
              {t.save}
            </button>
            {link.expiresAt ? (
              <button type="button" className="small" onClick={() => void save(null)}>
                {t.neverExpire}
              </button>
            ) : null}
            <button type="button" className="small" onClick={() => setEditing(false)}>
              {t.cancel}
            </button>
          </div>
        </form>
      ) : (
        <>
          <span className={past ? 'error' : undefined} data-expires={link.expiresAt ?? ''}>
            {link.expiresAt ? `${timeIn(zone, link.expiresAt).slice(0, 16)}${past ? ` (${t.expired})` : ''}` : t.never}
          </span>{' '}
          {onChanged ? (
            <button
              type="button"
              className="small"
              aria-label={`${t.changeExpiry} ${t.expires} /s/${link.slug}`}
              onClick={() => setEditing(true)}
            >
              {t.changeExpiry}
            </button>
          ) : null}
        </>
      )}
      <ErrorAlert message={error} />
    </div>
  );
}

/** Each link's figures over `range` (`/api/stats?by=link`), by slug; a failure is said through `onError`. */
function useLinkFigures(api: LinksApi, range: Range, t: LinksTexts, onError: (text: string) => void) {
  const [figures, setFigures] = useState<Map<string, StatsRow>>(new Map());
  useEffect(() => {
    let current = true;
    api.stats('link', range).then(
      (rows) => {
        if (current) setFigures(new Map(rows.map((row) => [row.key, row])));
      },
      (failure: unknown) => {
        if (current) onError(errorText(failure, t));
      },
    );
    // A range changed again before the answer came: the older answer is not shown.
    return () => {
      current = false;
    };
  }, [api, range, t, onError]);
  return figures;
}

export function LinksPanel({
  api,
  links,
  editable,
  onCreated,
  onChanged,
  t,
  opener,
  range,
  zone,
}: {
  api: LinksApi;
  links: LinkView[];
  /** Whether the operator may change links (`links:write`): else the room only reads, no form or button to be refused. */
  editable: boolean;
  onCreated: (link: LinkView) => void;
  /** A link the panel changed (its expiry), as the API now answers it. */
  onChanged: (link: LinkView) => void;
  t: LinksTexts;
  /** Opens a link's figures (docs/operators.md#drill-down). */
  opener?: Opener;
  /** The console's range: each link's figures are this range's. */
  range: Range;
  /** The operator's time zone, the one the console reports days in. */
  zone: string;
}) {
  const [error, setError] = useState('');
  const figures = useLinkFigures(api, range, t, setError);
  // A variants editor's save reads the experiments again: the verdict's cell shows the new variants.
  const [experimentsVersion, setExperimentsVersion] = useState(0);
  const experiments = useExperiments(api, t, setError, experimentsVersion);
  const onVariantsSaved = useCallback(() => setExperimentsVersion((version) => version + 1), []);
  const [qrStyle, setQrStyle] = useState<QrStyle>(PLAIN_QR_STYLE);
  return (
    <section className="panel links-panel" aria-labelledby="links-heading">
      <h2 id="links-heading">{t.links}</h2>
      {editable ? <LinkForm api={api} t={t} onCreated={onCreated} onError={setError} /> : null}
      <ErrorAlert message={error} />
      <QrStyleControl style={qrStyle} onChange={setQrStyle} preview={links.find((link) => !expired(link))} t={t} />
      <DataTable
        className="links-table"
        head={[t.link, t.channel, t.inviter, t.views, t.taps, t.attributed, t.experiment, t.created, t.access, t.qr]}
        empty={t.noLinks}
        rows={links.map((link) =>
          linkRow({
            api,
            link,
            row: figures.get(link.slug),
            experiment: experiments.get(link.slug),
            t,
            zone,
            qrStyle,
            ...(editable ? { onChanged, onVariantsSaved } : {}),
            opener,
          }),
        )}
      />
    </section>
  );
}

/**
 * The form that creates a link: channel, inviter, the display text visitors see, an optional slug
 * (a taken slug is said so) and an optional password.
 */
function LinkForm({
  api,
  t,
  onCreated,
  onError,
}: {
  api: LinksApi;
  t: LinksTexts;
  onCreated: (link: LinkView) => void;
  onError: (text: string) => void;
}) {
  const [busy, setBusy] = useState(false);
  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const field = (name: string) => String(new FormData(form).get(name) ?? '').trim() || undefined;
    setBusy(true);
    onError('');
    try {
      const title = field('title');
      onCreated(
        await api.createLink({
          channel: field('channel'),
          inviter: field('inviter'),
          slug: field('slug'),
          ...(title ? { data: { title } } : {}),
          ...(field('password') ? { password: field('password') } : {}),
        }),
      );
      form.reset();
    } catch (failure) {
      // The only conflict a new link meets is its slug (docs/operators.md).
      onError(errorText(failure, t, { 409: t.slugTaken }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="link-form" onSubmit={create}>
      <label>
        {t.channel}
        <input name="channel" maxLength={MAX_LINK_FIELD} autoComplete="off" />
      </label>
      <label>
        {t.inviter}
        <input name="inviter" maxLength={MAX_LINK_FIELD} autoComplete="off" />
      </label>
      <label>
        {t.title}
        <input name="title" maxLength={MAX_LINK_FIELD} placeholder={t.titleHint} autoComplete="off" />
      </label>
      <label>
        {t.slug}
        <input name="slug" pattern={SLUG_PATTERN} placeholder={t.slugHint} autoComplete="off" />
      </label>
      <label>
        {t.password}
        <input
          name="password"
          type="password"
          minLength={8}
          maxLength={128}
          placeholder={t.passwordHint}
          autoComplete="new-password"
        />
      </label>
      <button type="submit" className="primary" disabled={busy}>
        {t.create}
      </button>
    </form>
  );
}

/**
 * One link's row: its short URL to copy and open, its data, its figures, its expiry and its QR code.
 * A `<tr>` itself, not a component: the table labels the row's own cells (../shared/data-table.tsx).
 */
function linkRow({
  api,
  link,
  row,
  experiment,
  t,
  zone,
  qrStyle,
  onChanged,
  onVariantsSaved,
  opener,
}: {
  api: LinksApi;
  link: LinkView;
  row: StatsRow | undefined;
  experiment: ExperimentView | undefined;
  t: LinksTexts;
  zone: string;
  qrStyle: QrStyle;
  /** Absent where the operator may not change links: the row only reads. */
  onChanged?: (link: LinkView) => void;
  onVariantsSaved?: () => void;
  opener?: Opener;
}) {
  return (
    <tr key={link.slug} data-slug={link.slug} data-source={link.source}>
      <td>
        <div>
          <a href={link.shortUrl} target="_blank" rel="noreferrer">
            /s/{link.slug}
          </a>{' '}
          <LinkSource link={link} t={t} /> <CopyButton text={link.shortUrl} t={t} />{' '}
          {opener ? (
            <a
              className="open-figures"
              href={opener.hrefOf(link.slug)}
              onClick={(event) => {
                if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
                event.preventDefault();
                opener.onOpen(link.slug);
              }}
            >
              {t.openFigures}
            </a>
          ) : null}
        </div>
      </td>
      <td>{link.data.channel ?? ''}</td>
      <td>{link.data.inviter ?? ''}</td>
      <td data-figure="views">{row?.views ?? 0}</td>
      <td data-figure="taps">{row?.taps ?? 0}</td>
      <td data-figure="installs">{row?.attributed ?? 0}</td>
      <td data-figure="experiment">
        <ExperimentCell experiment={experiment} t={t} />
        {onVariantsSaved ? <VariantsEditor api={api} slug={link.slug} t={t} onSaved={onVariantsSaved} /> : null}
      </td>
      <td>{timeIn(zone, link.createdAt).slice(0, 10)}</td>
      <td>
        <Expiry api={api} link={link} zone={zone} t={t} onChanged={onChanged} />
        <PasswordControl api={api} link={link} t={t} onChanged={onChanged} />
        <RulesEditor api={api} link={link} t={t} onChanged={onChanged} />
        <PreviewEditor api={api} link={link} t={t} onChanged={onChanged} />
      </td>
      <td>
        <QrCell link={link} style={qrStyle} t={t} />
      </td>
    </tr>
  );
}

/**
 * A link's QR code in the room's style, opened full size, and its downloads as PNG and SVG; for an
 * expired link, whose code the worker no longer draws, a dash.
 */
function QrCell({ link, style, t }: { link: LinkView; style: QrStyle; t: LinksTexts }) {
  if (expired(link)) return <span data-qr="expired">–</span>;
  const urls = styledQrUrls(link, style);
  return (
    <div className="qr-cell">
      <a href={urls.svg} target="_blank" rel="noreferrer" aria-label={`${t.qr} /s/${link.slug}`}>
        <img className="qr-thumb" src={urls.svg} alt="" width={40} height={40} loading="lazy" />
      </a>
      <div className="row-actions">
        <a
          className="download"
          href={urls.png}
          download={`qr-${link.slug}.png`}
          aria-label={`${t.downloadQr} PNG /s/${link.slug}`}
        >
          PNG
        </a>
        <a
          className="download"
          href={urls.svg}
          download={`qr-${link.slug}.svg`}
          aria-label={`${t.downloadQr} SVG /s/${link.slug}`}
        >
          SVG
        </a>
      </div>
    </div>
  );
}
