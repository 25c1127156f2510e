/**
 * Draws a link's preview card (docs/smart-links.md#previews): the app's icon, its name and the link's
 * title and description on a 1200×630 PNG, laid out by satori and rasterised by resvg (WebAssembly),
 * in Noto Sans SC (SIL OFL 1.1, from @fontsource/noto-sans-sc) so English and Chinese both render.
 * It runs in Node, not in the worker: the two engines are ~1.6 MB gzip, over the worker's 350 kB budget
 * (docs/smart-links.md#the-card-and-the-worker-budget). The worker keeps and serves what this draws.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import satori from 'satori';
import { CARD_HEIGHT, CARD_WIDTH } from '../../shared/link-preview.ts';

const require = createRequire(import.meta.url);

/** What a card shows. */
export interface CardText {
  /** The app's name, above the title. */
  name: string;
  title: string;
  description?: string;
  /** The app's icon as a PNG. */
  icon: Uint8Array;
}

type Font = { name: string; data: Buffer; weight: 400 | 700 };

// Fontsource cuts Noto Sans SC into slices by unicode range (its unicode.json): a card loads only
// the slices its text needs, of the two weights it uses.
const FONT_PACKAGE = '@fontsource/noto-sans-sc';
const fontFile = (slice: string, weight: number) =>
  require.resolve(`${FONT_PACKAGE}/files/noto-sans-sc-${slice}-${weight}-normal.woff`);

let ranges: Promise<[slice: string, low: number, high: number][]> | undefined;

/** Each slice's unicode ranges. */
function sliceRanges() {
  ranges ??= (async () => {
    const table = JSON.parse(await readFile(require.resolve(`${FONT_PACKAGE}/unicode.json`), 'utf8')) as Record<
      string,
      string
    >;
    return Object.entries(table).flatMap(([name, list]) =>
      list.split(',').map((part): [string, number, number] => {
        const [low = '0', high = low] = part.trim().replace(/^U\+/i, '').split('-');
        return [name.replace(/^\[(\d+)\]$/, '$1'), Number.parseInt(low, 16), Number.parseInt(high, 16)];
      }),
    );
  })();
  return ranges;
}

const fontData = new Map<string, Promise<Buffer>>();
let wasm: Promise<void> | undefined;

/** resvg's WebAssembly (once per process) and the font slices that hold every character of `text`. */
async function loadEngines(text: string): Promise<Font[]> {
  wasm ??= readFile(require.resolve('@resvg/resvg-wasm/index_bg.wasm')).then((bytes) => initWasm(bytes));
  await wasm;
  const table = await sliceRanges();
  const slices = new Set(['latin']);
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const found = table.find(([, low, high]) => code >= low && code <= high);
    if (found) slices.add(found[0]);
  }
  const fonts: Promise<Font>[] = [];
  for (const slice of slices) {
    for (const weight of [400, 700] as const) {
      const file = fontFile(slice, weight);
      let data = fontData.get(file);
      if (!data) {
        data = readFile(file);
        fontData.set(file, data);
      }
      // One name per slice: satori keeps one font per name and weight, and falls back across names.
      fonts.push(data.then((bytes) => ({ name: `Noto Sans SC ${slice}`, weight, data: bytes })));
    }
  }
  return Promise.all(fonts);
}

type Node = { type: string; props: Record<string, unknown> & { style?: Record<string, unknown> } };
const el = (
  type: string,
  style: Record<string, unknown>,
  children?: unknown,
  extra: Record<string, unknown> = {},
): Node => ({
  type,
  props: { style, children, ...extra },
});

/** The card of `text` as a 1200×630 PNG. */
export async function drawCard(text: CardText): Promise<Uint8Array> {
  const fonts = await loadEngines(`${text.name}${text.title}${text.description ?? ''}`);
  const icon = `data:image/png;base64,${Buffer.from(text.icon).toString('base64')}`;
  const tree = el(
    'div',
    {
      width: '100%',
      height: '100%',
      display: 'flex',
      flexDirection: 'column',
      justifyContent: 'center',
      padding: '72px 88px',
      background: '#f4faf6',
      fontFamily: [...new Set(fonts.map(({ name }) => `'${name}'`))].join(', '),
      color: '#10241a',
    },
    [
      el('div', { display: 'flex', alignItems: 'center', marginBottom: 40 }, [
        el('img', { width: 112, height: 112, borderRadius: 24 }, undefined, { src: icon, width: 112, height: 112 }),
        el('div', { marginLeft: 28, fontSize: 40, fontWeight: 700, color: '#099D56' }, text.name),
      ]),
      el('div', { fontSize: 64, fontWeight: 700, lineHeight: 1.2, display: 'block', lineClamp: 2 }, text.title),
      ...(text.description
        ? [
            el(
              'div',
              { marginTop: 28, fontSize: 36, lineHeight: 1.35, color: '#3d5247', display: 'block', lineClamp: 2 },
              text.description,
            ),
          ]
        : []),
    ],
  );
  // satori's element type is React's; a plain object of the same shape is what it reads.
  const svg = await satori(tree as unknown as Parameters<typeof satori>[0], {
    width: CARD_WIDTH,
    height: CARD_HEIGHT,
    fonts,
  });
  return new Resvg(svg, { fitTo: { mode: 'original' } }).render().asPng();
}
