/**
 * The campaign card of `/landing` (docs/screens.md): who invited and which campaign. A field the
 * campaign token names is shown from the token, never from a plain parameter (shared/campaign.ts).
 */
import { type Campaign as CampaignData, campaignField } from '../../../shared/campaign.ts';
import { type Language, texts } from '../../../shared/texts.ts';

const TEXTS: Record<Language, { invitedBy: string; campaign: string }> = {
  en: { invitedBy: 'Invited by', campaign: 'Campaign' },
  'zh-CN': { invitedBy: '邀请人', campaign: '活动' },
};

export function Campaign({ language, campaign }: { language: Language; campaign: CampaignData }) {
  const inviter = campaignField(campaign, 'inviter');
  const channel = campaignField(campaign, 'channel');
  if (!inviter && !channel) return null;
  const t = { ...texts(language), ...TEXTS[language] };
  return (
    <section className="campaign" aria-label={t.campaign}>
      <p className="campaign-heading">{t.landingHeading}</p>
      <dl>
        {inviter ? (
          <div className="campaign-inviter">
            <dt>{t.invitedBy}</dt>
            <dd>
              <strong>{inviter}</strong>
            </dd>
          </div>
        ) : null}
        {channel ? (
          <div className="campaign-channel">
            <dt>{t.campaign}</dt>
            <dd>{channel}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}
