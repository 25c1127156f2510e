/**
 * The campaign card of `/landing` (docs/screens.md): who invited, and the campaign's display text
 * where the operator gave one (`title`, signed in the `d` token, docs/campaign-links.md). Only the
 * token's fields are shown as the campaign: a channel, a slug or an id is the operator's own name
 * for it and never appears here. The inviter may still come from a plain parameter the token does
 * not name (shared/campaign.ts).
 */
import { type Campaign as CampaignData, campaignField } from '../../../shared/campaign.ts';
import { type Language, texts } from '../../../shared/texts.ts';

const TEXTS: Record<Language, { invitedBy: string; campaign: string }> = {
  en: { invitedBy: 'Invited by', campaign: 'Campaign' },
  'zh-CN': { invitedBy: '邀请人', campaign: '活动' },
};

export function Campaign({ language, campaign }: { language: Language; campaign: CampaignData }) {
  const inviter = campaignField(campaign, 'inviter');
  const title = campaign.signed.title;
  if (!inviter && !title) return null;
  const t = { ...texts(language), ...TEXTS[language] };
  return (
    <section className="campaign" aria-label={t.campaign}>
      <p className="campaign-heading">{t.landingHeading}</p>
      {title ? <p className="campaign-title">{title}</p> : null}
      {inviter ? (
        <dl>
          <div className="campaign-inviter">
            <dt>{t.invitedBy}</dt>
            <dd>
              <strong>{inviter}</strong>
            </dd>
          </div>
        </dl>
      ) : null}
    </section>
  );
}
