/**
 * A page that is complete at once, rendered to one string
 * (docs/decisions/011-render-complete-pages-to-a-string.md). React's streaming renderer encodes each
 * of a document's many small strings into bytes as it goes (`stringToChunk`, the largest cost of a
 * first render in docs/benchmarks.md); its synchronous `renderToString` joins strings instead. It has
 * no `bootstrapModules` option, so the three things that option adds are written here exactly as the
 * streaming renderer writes them — the doctype, the entry's `modulepreload` link and its module
 * script — and tests/worker/render/render-complete.test.ts holds the two renderers' documents equal for
 * every page the tests know. A document that could not complete at once (something suspended, a
 * boundary failed) or that has an inline script (it needs a nonce) is not answered from here: the
 * caller streams it.
 */
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { hasInlineScript } from './page-cache.ts';

/** React's marker of a boundary left to the browser: it suspended or failed while rendering to a string. */
const CLIENT_RENDERED = '<!--$!-->';
/** The document's end (shell/document.tsx), after which the streaming renderer writes no byte. */
const END = '</body></html>';
/** A built asset's path or a nonce: nothing in it that an attribute would escape. */
const PLAIN = /^[\w/.+=-]+$/;

/**
 * The link `preloadModule(entry)` makes. The page's `Preload` asks for it first: it then stands where
 * the streaming renderer puts the entry's own link (after the stylesheets, before the other preloads).
 */
export const entryPreload = (entry: string): string => `<link rel="modulepreload" href="${entry}"/>`;

/**
 * A document rendered complete, written with `nonce` on the entry's two tags (as the streaming
 * renderer writes a response's nonce), or without one (as a page is kept: page-cache.ts).
 */
export type CompleteDocument = (nonce?: string) => string;

/**
 * `node` (a whole document whose client entry is `entry`) as `renderToReadableStream(node,
 * { nonce, bootstrapModules: [entry] })` would stream it, or undefined where it cannot be rendered
 * complete at once: the caller streams it then (and logs any error that way, once).
 */
export function renderComplete(node: ReactNode, entry: string): CompleteDocument | undefined {
  if (!PLAIN.test(entry)) return undefined;
  let html: string;
  try {
    html = renderToString(node);
  } catch {
    // A suspension outside any boundary, or an error in the shell: the streaming renderer decides.
    return undefined;
  }
  const preload = entryPreload(entry);
  const at = html.indexOf(preload);
  if (html.includes(CLIENT_RENDERED) || at < 0 || !html.endsWith(END) || hasInlineScript(html)) return undefined;
  const head = `<!DOCTYPE html>${html.slice(0, at)}`;
  const body = html.slice(at + preload.length, -END.length);
  return (nonce) => {
    // A nonce is base64 (lib/headers.ts): nothing in it that an attribute would escape.
    const attribute = nonce !== undefined && PLAIN.test(nonce) ? ` nonce="${nonce}"` : '';
    return (
      `${head}<link rel="modulepreload" fetchPriority="low"${attribute} href="${entry}"/>${body}` +
      `<script type="module" src="${entry}"${attribute} id="_R_" async=""></script>${END}`
    );
  };
}
