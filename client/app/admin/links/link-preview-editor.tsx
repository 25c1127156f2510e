/**
 * A link's preview in the links room (docs/operators.md#the-console, docs/smart-links.md#previews):
 * the title, description and image link previewers show for `/s/<slug>`, saved with `PATCH
 * /api/links/<slug>` (`null` when every field is left empty). The image is none, an https URL, or
 * the link's card; the card is drawn by `npm run link -- --card` and shown here once it is uploaded
 * (a link without one, or protected by a password, shows the command instead).
 */
import { type FormEvent, useState } from 'react';
import type { LinkPreview } from '../../../../shared/link-preview.ts';
import { errorText } from '../shared/admin-client.ts';
import { ErrorAlert } from '../shared/error-alert.tsx';
import type { LinksApi, LinkView } from './links-api.ts';
import type { LinksTexts } from './links-texts.ts';

type ImageChoice = 'none' | 'card' | 'url';

/** The preview a filled form spells: empty fields left out, null when nothing is left. */
export function previewOf(form: {
  title: string;
  description: string;
  image: ImageChoice;
  url: string;
}): LinkPreview | null {
  const preview: LinkPreview = {};
  if (form.title.trim()) preview.title = form.title.trim();
  if (form.description.trim()) preview.description = form.description.trim();
  if (form.image === 'card') preview.image = 'card';
  if (form.image === 'url' && form.url.trim()) preview.image = form.url.trim();
  return Object.keys(preview).length > 0 ? preview : null;
}

/** The card of `link` as uploaded, or the command that draws it when there is none to show. */
function CardShown({ link, t }: { link: LinkView; t: LinksTexts }) {
  const [missing, setMissing] = useState(link.hasPassword);
  if (missing) {
    return (
      <small className="card-missing" data-card="missing">
        {t.cardMissing(link.slug)}
      </small>
    );
  }
  return (
    <img
      className="card-thumb"
      data-card="shown"
      src={`${link.shortUrl}/card.png`}
      alt={t.cardOf(link.slug)}
      width={240}
      height={126}
      loading="lazy"
      onError={() => setMissing(true)}
    />
  );
}

/** The preview's image: the page's own, the link's card (shown once drawn) or an https image. */
function ImageChoiceFields({
  link,
  image,
  onChoose,
  t,
}: {
  link: LinkView;
  image: ImageChoice;
  onChoose: (image: ImageChoice) => void;
  t: LinksTexts;
}) {
  const kept = link.preview?.image;
  return (
    <fieldset className="preview-image">
      <legend>{t.previewImage}</legend>
      {(['none', 'card', 'url'] as const).map((choice) => (
        <label key={choice} className="inline">
          <input
            type="radio"
            name="image"
            value={choice}
            checked={image === choice}
            onChange={() => onChoose(choice)}
          />
          {{ none: t.previewNoImage, card: t.previewCard, url: t.previewImageUrl }[choice]}
        </label>
      ))}
      {image === 'url' ? (
        <input
          name="url"
          type="url"
          required
          pattern="https://.*"
          maxLength={2048}
          defaultValue={kept && kept !== 'card' ? kept : ''}
          aria-label={`${t.previewImageUrl} /s/${link.slug}`}
        />
      ) : null}
      {image === 'card' ? <CardShown link={link} t={t} /> : null}
    </fieldset>
  );
}

/** The link's preview in a disclosure: a form to change it, or (without `onChanged`) its fields to read. */
export function PreviewEditor({
  api,
  link,
  t,
  onChanged,
}: {
  api: LinksApi;
  link: LinkView;
  t: LinksTexts;
  /** The link as the API answers it after a change; absent for an operator who may not change links. */
  onChanged?: (link: LinkView) => void;
}) {
  return (
    <details className="link-preview">
      <summary>
        {t.preview} ({link.preview ? t.previewSet : t.previewNone})
      </summary>
      {onChanged ? (
        <PreviewForm api={api} link={link} t={t} onChanged={onChanged} />
      ) : (
        <PreviewShown link={link} t={t} />
      )}
    </details>
  );
}

/** The preview's fields as kept, for an operator who may only read links. */
function PreviewShown({ link, t }: { link: LinkView; t: LinksTexts }) {
  const kept = link.preview;
  if (!kept) return null;
  const image = kept.image === 'card' ? t.previewCard : kept.image;
  return (
    <dl className="preview-shown">
      {kept.title ? <dt>{t.previewTitle}</dt> : null}
      {kept.title ? <dd>{kept.title}</dd> : null}
      {kept.description ? <dt>{t.previewDescription}</dt> : null}
      {kept.description ? <dd>{kept.description}</dd> : null}
      {image ? <dt>{t.previewImage}</dt> : null}
      {image ? <dd>{image}</dd> : null}
    </dl>
  );
}

/** The form that changes the link's preview. */
function PreviewForm({
  api,
  link,
  t,
  onChanged,
}: {
  api: LinksApi;
  link: LinkView;
  t: LinksTexts;
  onChanged: (link: LinkView) => void;
}) {
  const kept = link.preview;
  const [image, setImage] = useState<ImageChoice>(!kept?.image ? 'none' : kept.image === 'card' ? 'card' : 'url');
  const [error, setError] = useState('');
  const [saved, setSaved] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const field = (name: string) => String(data.get(name) ?? '');
    setError('');
    setSaved(false);
    try {
      const preview = previewOf({ title: field('title'), description: field('description'), image, url: field('url') });
      onChanged(await api.setLinkPreview(link.slug, preview));
      setSaved(true);
    } catch (failure) {
      setError(errorText(failure, t));
    }
  };
  const label = (what: string) => `${what} /s/${link.slug}`;
  return (
    <>
      <form className="preview-form" onSubmit={(event) => void submit(event)}>
        <small>{t.previewHint}</small>
        <label>
          {t.previewTitle}
          <input name="title" maxLength={120} defaultValue={kept?.title ?? ''} aria-label={label(t.previewTitle)} />
        </label>
        <label>
          {t.previewDescription}
          <textarea
            name="description"
            rows={2}
            maxLength={300}
            defaultValue={kept?.description ?? ''}
            aria-label={label(t.previewDescription)}
          />
        </label>
        <ImageChoiceFields link={link} image={image} onChoose={setImage} t={t} />
        <button type="submit" className="small primary">
          {t.savePreview}
        </button>
        {saved ? <span role="status">{t.previewSaved}</span> : null}
      </form>
      <ErrorAlert message={error} />
    </>
  );
}
