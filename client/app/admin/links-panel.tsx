/**
 * The short links (docs/operators.md): a form that creates one (channel, inviter, an optional slug)
 * and the table of links, each with its short URL to copy and its QR code (`/s/<slug>.svg`).
 */
import { type FormEvent, useState } from 'react';
import { MAX_LINK_FIELD, SLUG_PATTERN } from '../../../shared/admin-contract.ts';
import { type AdminApi, errorText, type LinkView } from './admin-api.ts';
import type { AdminTexts } from './admin-texts.ts';
import { DataTable } from './data-table.tsx';
import { ErrorAlert } from './error-alert.tsx';

function CopyButton({ text, t }: { text: string; t: AdminTexts }) {
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

export function LinksPanel({
  api,
  links,
  onCreated,
  t,
  opener,
}: {
  api: AdminApi;
  links: LinkView[];
  onCreated: (link: LinkView) => void;
  t: AdminTexts;
  /** Opens a link's figures (docs/operators.md#drill-down). */
  opener?: { hrefOf: (slug: string) => string; onOpen: (slug: string) => void };
}) {
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const create = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const field = (name: string) => String(new FormData(form).get(name) ?? '').trim() || undefined;
    setBusy(true);
    setError('');
    try {
      onCreated(await api.createLink({ channel: field('channel'), inviter: field('inviter'), slug: field('slug') }));
      form.reset();
    } catch (failure) {
      // The only conflict a new link meets is its slug (docs/operators.md).
      setError(errorText(failure, t, { 409: t.slugTaken }));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="panel links-panel" aria-labelledby="links-heading">
      <h2 id="links-heading">{t.links}</h2>
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
          {t.slug}
          <input name="slug" pattern={SLUG_PATTERN} placeholder={t.slugHint} autoComplete="off" />
        </label>
        <button type="submit" className="primary" disabled={busy}>
          {t.create}
        </button>
      </form>
      <ErrorAlert message={error} />
      <DataTable
        className="links-table"
        head={[t.link, t.channel, t.inviter, t.created, t.qr]}
        empty={t.noLinks}
        rows={links.map((link) => (
          <tr key={link.slug} data-slug={link.slug}>
            <td>
              <a href={link.shortUrl} target="_blank" rel="noreferrer">
                /s/{link.slug}
              </a>{' '}
              <CopyButton text={link.shortUrl} t={t} />{' '}
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
            </td>
            <td>{link.data.channel ?? ''}</td>
            <td>{link.data.inviter ?? ''}</td>
            <td>{link.createdAt.slice(0, 10)}</td>
            <td>
              <a href={link.qr} target="_blank" rel="noreferrer" aria-label={`${t.qr} /s/${link.slug}`}>
                <img className="qr-thumb" src={link.qr} alt="" width={40} height={40} loading="lazy" />
              </a>
            </td>
          </tr>
        ))}
      />
    </section>
  );
}
