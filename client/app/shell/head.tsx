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
        if (head[0] === 'title') return <title key="title">{head[1]}</title>;
        const [tag, attribute, key, value] = head;
        return tag === 'meta' ? (
          <meta key={key} {...{ [attribute]: key }} content={value} />
        ) : (
          <link key={key} rel={key} href={value} />
        );
      })}
    </>
  );
}
