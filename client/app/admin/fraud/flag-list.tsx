/**
 * An install's fraud flags and their reasons, in the console's language (docs/fraud.md): the
 * dashboard hands it to the install look-up, which shows it under an answer.
 */
import type { Language } from '../../../../shared/texts.ts';
import { fraudTexts } from './fraud-texts.ts';

/** An install's fraud flags and their reasons (the install look-up); nothing when it has none. */
export function FlagList({ flags, language }: { flags: { rule: string; reason: string }[]; language: Language }) {
  if (flags.length === 0) return null;
  const t = fraudTexts(language);
  return (
    <ul className="fraud-reasons" aria-label={t.heading}>
      {flags.map((flag) => (
        <li key={flag.rule}>
          <strong>{t.rules[flag.rule] ?? flag.rule}</strong>: {flag.reason}
        </li>
      ))}
    </ul>
  );
}
