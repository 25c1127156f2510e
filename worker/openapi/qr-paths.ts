/**
 * A short link's QR code in the OpenAPI document (`/s/{slug}.svg`, `/s/{slug}.png`,
 * docs/operators.md#qr-code-styles): its style's query parameters, their bounds from the rules
 * themselves (shared/qr-style.ts).
 */
import { SLUG_PATTERN } from '../../shared/admin-contract.ts';
import { MIN_QR_CONTRAST, MIN_QR_GREY_STEP, PLAIN_QR_STYLE, QR_MARGIN, QR_SCALE } from '../../shared/qr-style.ts';
import { type Json, refusal } from './operation-parts.ts';

const colour = (description: string, plain: string): Json => ({
  in: 'query',
  required: false,
  description: `${description}: \`#rrggbb\` or \`rrggbb\` (a \`#\` is written \`%23\`); default \`${plain.slice(1)}\`.`,
  schema: { type: 'string', pattern: '^#?[0-9A-Fa-f]{6}$' },
});

/** The paths of a link's QR code as SVG and PNG. */
export function qrPaths(): Json {
  const style: Json[] = [
    { name: 'slug', in: 'path', required: true, schema: { type: 'string', pattern: SLUG_PATTERN } },
    { name: 'fg', ...colour('The dark modules’ colour', PLAIN_QR_STYLE.fg) },
    {
      name: 'bg',
      ...colour(
        `The light modules’ and quiet zone’s colour; \`fg\` must be darker, with a WCAG 2 contrast ratio of at least ${MIN_QR_CONTRAST}:1 and grey levels (BT.709 weights on the sRGB values) at least ${MIN_QR_GREY_STEP} of 255 apart`,
        PLAIN_QR_STYLE.bg,
      ),
    },
    {
      name: 'margin',
      in: 'query',
      required: false,
      description: 'The quiet zone, in modules.',
      schema: { type: 'integer', minimum: QR_MARGIN.min, maximum: QR_MARGIN.max, default: PLAIN_QR_STYLE.margin },
    },
    {
      name: 'logo',
      in: 'query',
      required: false,
      description:
        '`1`: the app’s logo (its `logo_url`) in the centre, at error correction H, over at most 15 % of the modules. A logo that cannot be had gives the code without it and an `x-qr-logo` header saying why.',
      schema: { type: 'string', enum: ['0', '1'], default: '0' },
    },
  ];
  const scale = {
    name: 'scale',
    in: 'query',
    required: false,
    description: 'Pixels a module.',
    schema: { type: 'integer', minimum: QR_SCALE.min, maximum: QR_SCALE.max, default: PLAIN_QR_STYLE.scale },
  };
  const answers = (type: string): Json => ({
    200: {
      description:
        'The code, named `qr-<slug>.<format>` when saved. Without a style it is the plain code (black on white, kept 5 minutes); a styled code is kept a day, with an ETag.',
      headers: {
        ETag: { description: 'A styled code’s digest of its link, style and logo.', schema: { type: 'string' } },
        'x-qr-logo': {
          description: '`missing: <why>` when the logo asked for is not drawn.',
          schema: { type: 'string' },
        },
      },
      content: { [type]: { schema: { type: 'string', ...(type === 'image/png' ? { format: 'binary' } : {}) } } },
    },
    304: { description: 'The styled code named by `If-None-Match` is unchanged.' },
    400: refusal('A style parameter is wrong: `{ "error": "<field>: <reason>" }`.'),
    404: { description: 'No such link, or it has expired.' },
  });
  return {
    '/s/{slug}.svg': {
      get: {
        tags: ['operators'],
        summary: 'A short link’s QR code as SVG, optionally styled; a logo is embedded as a data: URL.',
        parameters: style,
        responses: answers('image/svg+xml'),
      },
    },
    '/s/{slug}.png': {
      get: {
        tags: ['operators'],
        summary: 'A short link’s QR code as PNG, optionally styled.',
        parameters: [...style, scale],
        responses: answers('image/png'),
      },
    },
  };
}
