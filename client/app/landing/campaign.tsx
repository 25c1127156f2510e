/**
 * The campaign card of `/landing` (docs/screens.md): who invited and which campaign. It alone reads
 * the campaign fields, so where they come from (docs/campaign-links.md) changes here only.
 */
import { type Language, texts } from '../../../shared/texts.ts';

const TEXTS: Record<Language, { invitedBy: string; campaign: string }> = {
  en: { invitedBy: 'Invited by', campaign: 'Campaign' },
  'zh-CN': { invitedBy: '邀请人', campaign: '活动' },
};

export function Campaign({ language, fields }: { language: Language; fields: Record<string, string> }) {
  const { inviter, channel } = fields;
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
