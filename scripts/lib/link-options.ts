/**
 * `npm run link -- --short`'s options for a link's variants, preview and QR code style
 * (docs/smart-links.md, docs/operators.md#qr-code-styles), read and checked against the links API's
 * own schemas before anything is sent: a bad value is refused with its option and reason.
 */
import * as v from 'valibot';
import { LinkPreviewSchema } from '../../shared/link-preview.ts';
import { parseQrStyle, type QrStyle } from '../../shared/qr-style.ts';
import { type Experiment, ExperimentSchema } from '../../shared/variants.ts';

type Read<T> = { ok: true; value: T } | { ok: false; reason: string };

/**
 * The fields a `--variant` names: those of shared/variants.ts's VariantSchema, its preview's as
 * `preview.title`, `preview.description` and `preview.image` (what link previewers show its visitors).
 */
const VARIANT_FIELDS = [
  'name',
  'weight',
  'headline',
  'text',
  'image',
  'button',
  'preview.title',
  'preview.description',
  'preview.image',
] as const;
/** A comma ends a field only before the next field's `name=`: a headline may hold commas. */
const FIELD_START = new RegExp(`,(?=\\s*(?:${VARIANT_FIELDS.map((field) => field.replace('.', '\\.')).join('|')})=)`);

/** `name=b,weight=50,headline=…,preview.title=…` as a variant's fields (weight 1 when left out). */
function variantFields(text: string, at: number): Read<Record<string, unknown>> {
  const fields: Record<string, unknown> = { weight: 1 };
  const preview: Record<string, string> = {};
  for (const part of text.split(FIELD_START)) {
    const equals = part.indexOf('=');
    const key = part.slice(0, equals).trim();
    if (equals < 1 || !(VARIANT_FIELDS as readonly string[]).includes(key)) {
      return {
        ok: false,
        reason: `--variant ${at}: expected ${VARIANT_FIELDS.join('=…, ')}=…, got ${JSON.stringify(part)}`,
      };
    }
    const value = part.slice(equals + 1);
    if (key.startsWith('preview.')) preview[key.slice('preview.'.length)] = value;
    else fields[key] = key === 'weight' ? (/^\d+$/.test(value) ? Number(value) : value) : value;
  }
  if (fields.name === undefined) return { ok: false, reason: `--variant ${at}: name=… is missing` };
  if (Object.keys(preview).length > 0) fields.preview = preview;
  return { ok: true, value: fields };
}

/** The experiment `--variant …` (each in order, the first the control) and `--variant-event` ask for. */
export function variantsArgument(texts: readonly string[], event: string | undefined): Read<Experiment> {
  const variants: Record<string, unknown>[] = [];
  for (const [index, text] of texts.entries()) {
    const read = variantFields(text, index + 1);
    if (!read.ok) return read;
    variants.push(read.value);
  }
  const parsed = v.safeParse(ExperimentSchema, { variants, event: event ?? null });
  if (parsed.success) return { ok: true, value: parsed.output };
  const [issue] = parsed.issues;
  const index = issue.path?.[1]?.key;
  const where =
    typeof index === 'number'
      ? `--variant ${index + 1}`
      : event !== undefined && issue.path?.[0]?.key === 'event'
        ? '--variant-event'
        : '--variant';
  return { ok: false, reason: `${where}: ${issue.message.replace(/^event: /, '')}` };
}

/** The preview `--preview-title`, `--preview-description` and `--preview-image` (or `card`) ask for. */
export function previewArgument(preview: {
  title?: string;
  description?: string;
  image?: string;
}): Read<v.InferOutput<typeof LinkPreviewSchema> | undefined> {
  const given = Object.fromEntries(Object.entries(preview).filter(([, value]) => value !== undefined));
  if (Object.keys(given).length === 0) return { ok: true, value: undefined };
  const parsed = v.safeParse(LinkPreviewSchema, given);
  if (parsed.success) return { ok: true, value: parsed.output };
  const [issue] = parsed.issues;
  const field = String(issue.path?.[0]?.key ?? 'title');
  return { ok: false, reason: `--preview-${field}: ${issue.message.replace(/^preview\./, '')}` };
}

/** The QR code style `--qr-fg`, `--qr-bg`, `--qr-margin`, `--qr-logo` and `--qr-scale` ask for, or none. */
export function qrStyleArgument(flags: {
  fg?: string;
  bg?: string;
  margin?: string;
  logo?: boolean;
  scale?: string;
}): Read<QrStyle | undefined> {
  const query: Record<string, string | undefined> = {
    fg: flags.fg,
    bg: flags.bg,
    margin: flags.margin,
    scale: flags.scale,
    logo: flags.logo ? '1' : undefined,
  };
  if (Object.values(query).every((value) => value === undefined)) return { ok: true, value: undefined };
  const parsed = parseQrStyle((name) => query[name]);
  return parsed.ok ? { ok: true, value: parsed.style } : { ok: false, reason: `--qr-${parsed.error}` };
}
