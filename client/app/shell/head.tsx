/**
 * Per-page head tags (shared/page-meta.ts `headTags`, the list the bots' page renders too). React 19
 * hoists <title>, <meta> and <link> into <head> on the server and in the browser, so the layout can
 * render them next to the page.
 */
import { headTags, type PageMeta } from '../../../shared/page-meta.ts';

export function Head({ meta }: { meta: PageMeta }) {
  return (
    <>
      {headTags(meta).map((head) => {
        if (head.tag === 'title') return <title key="title">{head.text}</title>;
        const attributes = Object.fromEntries(head.attributes);
        const key = head.attributes[0]?.join('=');
        return head.tag === 'meta' ? <meta key={key} {...attributes} /> : <link key={key} {...attributes} />;
      })}
    </>
  );
}
