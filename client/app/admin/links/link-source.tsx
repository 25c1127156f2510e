/**
 * Who made a link (docs/operators.md#the-console): a small label beside the short URL of a link the app
 * made for its signed-in user (docs/campaign-links.md#invite-links-from-the-app); nothing for an
 * operator's link, made in this console, by `npm run link` or through the API.
 */
import type { LinkView } from '../../../../shared/admin-contract.ts';
import type { LinksTexts } from './links-texts.ts';

export function LinkSource({
  link,
  t,
}: {
  link: Pick<LinkView, 'source'>;
  t: Pick<LinksTexts, 'fromApp' | 'fromAppHint'>;
}) {
  if (link.source !== 'app') return null;
  return (
    <span className="link-source" title={t.fromAppHint}>
      {t.fromApp}
    </span>
  );
}
