/**
 * A link's preview (docs/smart-links.md#previews): the title, description and image every link
 * previewer shows for `/s/<slug>` — Facebook, X, LinkedIn, Slack, Discord, WhatsApp and Telegram read
 * the Open Graph and Twitter tags, WeChat's share card the title, the description meta and the first
 * image of the body. The image is an https URL, or `card`: the card drawn from the app's icon and
 * the link's text, served at `/s/<slug>/card.png` (worker/campaign/link-card.ts).
 */
import * as v from 'valibot';

/** The generated card's size: the 1.91:1 image every previewer shows at full width. */
export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

const text = (name: string, max: number) =>
  v.optional(
    v.pipe(v.string(), v.regex(/\S/, `${name} is blank`), v.maxLength(max, `${name} is longer than ${max} characters`)),
  );

/** What an image that is neither is told. */
const NOT_AN_IMAGE = 'preview.image is an https URL or "card"';

/** The body's `preview` in `POST`/`PATCH /api/links`; what the link keeps (migration 0017). */
export const LinkPreviewSchema = v.strictObject({
  title: text('preview.title', 120),
  description: text('preview.description', 300),
  image: v.optional(
    v.union(
      [
        v.literal('card'),
        v.pipe(
          v.string(),
          v.maxLength(2048, 'preview.image is longer than 2048 characters'),
          v.url(NOT_AN_IMAGE),
          v.regex(/^https:\/\//, NOT_AN_IMAGE),
          v.check((url) => !/\s/.test(url), NOT_AN_IMAGE),
        ),
      ],
      NOT_AN_IMAGE,
    ),
  ),
});
export type LinkPreview = v.InferOutput<typeof LinkPreviewSchema>;

/** The preview a page's head shows: its image as a URL, with its size when known. */
export interface ShownPreview {
  title?: string;
  description?: string;
  image?: string;
  imageWidth?: number;
  imageHeight?: number;
}

/**
 * The preview `/s/<slug>` on `origin` (the app's, base path included) shows: the link's, each field
 * the variant's `over` gives replacing it; `card` becomes the card's URL and size. Undefined when
 * neither has one.
 */
export function shownPreview(
  origin: string,
  slug: string,
  link: LinkPreview | undefined,
  over: LinkPreview | undefined,
): ShownPreview | undefined {
  if (!link && !over) return undefined;
  const merged: LinkPreview = { ...link };
  for (const [key, value] of Object.entries(over ?? {}) as [keyof LinkPreview, string | undefined][]) {
    if (value !== undefined) merged[key] = value as never;
  }
  const { image, ...words } = merged;
  if (image !== 'card') return image ? { ...words, image } : words;
  return { ...words, image: `${origin}/s/${slug}/card.png`, imageWidth: CARD_WIDTH, imageHeight: CARD_HEIGHT };
}
