/**
 * A link's variants edited in the links room (docs/operators.md#the-console,
 * docs/smart-links.md#variants-and-the-sequential-test): up to eight, the first the control, each
 * with its name, weight, headline, text, button words, image and preview (title, description, image:
 * what link previewers show to those who get it), read with `GET` when opened, saved
 * whole with `PUT /api/links/<slug>/variants` and removed with `DELETE`. A field the worker refuses
 * (`variants.1.image: …`) is marked and its reason shown beside it; any other refusal under the form.
 */
import { type FormEvent, useState } from 'react';
import { VARIANT_NAME } from '../../../../shared/link-rules.ts';
import { type Experiment, MAX_VARIANTS, type Variant } from '../../../../shared/variants.ts';
import { HttpError } from '../../http-client.ts';
import { errorText, statusOf } from '../shared/admin-client.ts';
import { ErrorAlert } from '../shared/error-alert.tsx';
import type { LinksApi } from './links-api.ts';
import type { LinksTexts } from './links-texts.ts';

/** The words of a variant the editor shows, each an input's text. */
const WORDS = ['headline', 'text', 'button', 'image'] as const;
/** The variant's preview's fields, each an input's text, by the field of `preview` it fills. */
const PREVIEW = { previewTitle: 'title', previewDescription: 'description', previewImage: 'image' } as const;
type PreviewField = keyof typeof PREVIEW;
const PREVIEW_FIELDS = Object.keys(PREVIEW) as PreviewField[];
type Words = (typeof WORDS)[number] | PreviewField;
/** One variant as the editor holds it: every field as typed. */
type Row = { key: number; name: string; weight: string } & Record<Words, string>;
/** The refused fields, by `<index>.<field>`; `''` for a refusal of the whole. */
type Refusals = Record<string, string>;

let nextKey = 0;
const rowOf = (variant: Partial<Variant>): Row => ({
  key: nextKey++,
  name: variant.name ?? '',
  weight: String(variant.weight ?? 1),
  ...(Object.fromEntries(WORDS.map((word) => [word, variant[word] ?? ''])) as Record<(typeof WORDS)[number], string>),
  ...(Object.fromEntries(PREVIEW_FIELDS.map((field) => [field, variant.preview?.[PREVIEW[field]] ?? ''])) as Record<
    PreviewField,
    string
  >),
});
/** A link without variants starts from a control and one more. */
const starting = (): Row[] => [rowOf({ name: 'a' }), rowOf({ name: 'b' })];

/** The body `PUT` takes: a field left empty is left out (the page shows its own). */
export function experimentOf(rows: readonly Row[], event: string | null): Experiment {
  const variants = rows.map((row) => {
    const variant: Variant = { name: row.name.trim(), weight: Number(row.weight) };
    for (const word of WORDS) if (row[word].trim()) variant[word] = row[word];
    const preview: NonNullable<Variant['preview']> = {};
    for (const field of PREVIEW_FIELDS) if (row[field].trim()) preview[PREVIEW[field]] = row[field].trim();
    if (Object.keys(preview).length > 0) variant.preview = preview;
    return variant;
  });
  return { variants, event };
}

/** The editor's field a refused path names: `preview.title` is `previewTitle`, `headline` itself. */
const fieldOf = (path: string): string =>
  path.startsWith('preview.') ? `preview${path.charAt(8).toUpperCase()}${path.slice(9)}` : path;

/** The worker's refusal by field (`variants.<i>.<field>[.<sub>]: reason`), else the whole's words. */
export function refusalsOf(failure: unknown, t: LinksTexts): Refusals {
  const data: unknown = failure instanceof HttpError ? (failure.cause as { data?: unknown })?.data : undefined;
  const said = data && typeof data === 'object' && 'error' in data ? String(data.error) : '';
  const field = /^variants\.(\d+)\.([a-z]+(?:\.(?:title|description|image))?)[^:]*: (.+)$/.exec(said);
  return field ? { [`${field[1]}.${fieldOf(field[2] ?? '')}`]: field[3] ?? '' } : { '': errorText(failure, t) };
}

/** One variant's inputs; a refused one marked, its reason beside it. */
function VariantFields({
  row,
  index,
  refusals,
  t,
  onEdit,
  onRemove,
}: {
  row: Row;
  index: number;
  refusals: Refusals;
  t: LinksTexts;
  onEdit: (row: Row) => void;
  onRemove: () => void;
}) {
  const labels = {
    headline: t.variantHeadline,
    text: t.variantText,
    button: t.variantButton,
    image: t.variantImage,
    previewTitle: t.variantPreviewTitle,
    previewDescription: t.variantPreviewDescription,
    previewImage: t.variantPreviewImage,
  };
  const limits = {
    headline: 120,
    text: 500,
    button: 40,
    image: 2048,
    previewTitle: 120,
    previewDescription: 300,
    previewImage: 2048,
  };
  const input = (field: 'name' | 'weight' | Words, label: string, extra: Record<string, unknown>) => {
    const refused = refusals[`${index}.${field}`];
    const id = `variant-${row.key}-${field}`;
    return (
      <label key={field}>
        {label}
        <input
          {...extra}
          name={field}
          value={row[field]}
          aria-invalid={refused ? true : undefined}
          aria-describedby={refused ? `${id}-refused` : undefined}
          onChange={(event) => onEdit({ ...row, [field]: event.currentTarget.value })}
        />
        {refused ? (
          <small className="error" id={`${id}-refused`}>
            {refused}
          </small>
        ) : null}
      </label>
    );
  };
  return (
    <fieldset className="variant-fields" data-variant-index={index}>
      <legend>{t.variantNumber(index + 1)}</legend>
      {input('name', t.variantName, { required: true, pattern: VARIANT_NAME.source.slice(1, -1), autoComplete: 'off' })}
      {input('weight', t.variantWeight, { type: 'number', required: true, min: 0, step: 1, inputMode: 'numeric' })}
      {[...WORDS, ...PREVIEW_FIELDS].map((word) =>
        input(word, labels[word], {
          type: word === 'image' || word === 'previewImage' ? 'url' : 'text',
          maxLength: limits[word],
        }),
      )}
      <button type="button" className="small" onClick={onRemove}>
        {t.removeVariant}
      </button>
    </fieldset>
  );
}

/** The editor's state: the rows, the loaded event, the refusals and what was last done. */
function useVariantsEditor(api: LinksApi, slug: string, t: LinksTexts, onSaved: () => void) {
  const [rows, setRows] = useState<Row[] | null>(null);
  const [event, setEvent] = useState<string | null>(null);
  const [refusals, setRefusals] = useState<Refusals>({});
  const [done, setDone] = useState('');
  const load = async () => {
    if (rows) return;
    try {
      const kept = await api.variants(slug);
      setRows(kept.variants.map(rowOf));
      setEvent(kept.event ?? null);
    } catch (failure) {
      setRows(starting());
      if (statusOf(failure) !== 404) setRefusals({ '': errorText(failure, t) });
    }
  };
  const act = async (call: () => Promise<unknown>, said: string) => {
    setRefusals({});
    setDone('');
    try {
      await call();
      setDone(said);
      onSaved();
    } catch (failure) {
      setRefusals(refusalsOf(failure, t));
    }
  };
  const save = () => act(() => api.setVariants(slug, experimentOf(rows ?? [], event)), t.variantsSaved);
  const remove = () =>
    act(async () => {
      await api.removeVariants(slug);
      setRows(starting());
    }, t.variantsRemoved);
  return { opened: rows !== null, rows: rows ?? [], setRows, refusals, done, load, save, remove };
}

/** The link's variants to edit, in a disclosure opened on demand. */
export function VariantsEditor({
  api,
  slug,
  t,
  onSaved,
}: {
  api: LinksApi;
  slug: string;
  t: LinksTexts;
  onSaved: () => void;
}) {
  const editor = useVariantsEditor(api, slug, t, onSaved);
  const { rows, setRows } = editor;
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void editor.save();
  };
  return (
    <details className="link-variants" onToggle={(event) => event.currentTarget.open && void editor.load()}>
      <summary>{t.editVariants}</summary>
      {/* Drawn once opened: a closed editor is a summary alone, however narrow its cell. */}
      {editor.opened ? (
        <form className="variants-form" onSubmit={submit} aria-label={`${t.editVariants} /s/${slug}`}>
          <small>{t.variantsHint}</small>
          {rows.map((row, index) => (
            <VariantFields
              key={row.key}
              row={row}
              index={index}
              refusals={editor.refusals}
              t={t}
              onEdit={(edited) => setRows(rows.map((other) => (other.key === row.key ? edited : other)))}
              onRemove={() => setRows(rows.filter((other) => other.key !== row.key))}
            />
          ))}
          <div className="row-actions">
            <button
              type="button"
              className="small"
              disabled={rows.length >= MAX_VARIANTS}
              onClick={() => setRows([...rows, rowOf({ name: '', weight: 1 })])}
            >
              {t.addVariant}
            </button>
            <button type="submit" className="small primary">
              {t.saveVariants}
            </button>
            <button type="button" className="small" onClick={() => void editor.remove()}>
              {t.removeVariants}
            </button>
          </div>
          {editor.done ? <span role="status">{editor.done}</span> : null}
        </form>
      ) : null}
      <ErrorAlert message={editor.refusals[''] ?? ''} />
    </details>
  );
}
