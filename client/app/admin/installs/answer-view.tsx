/**
 * An install or open answer as the console shows it (docs/operators.md): how it was matched with the
 * campaign's fields, or why not; then why, line by line, in the console's language
 * (shared/install-explanation.ts).
 */
import type { AnswerView, ExplainView } from '../../../../shared/admin-contract.ts';
import { explanationLines } from '../../../../shared/install-explanation.ts';
import type { Language } from '../../../../shared/texts.ts';
import type { InstallsTexts } from './installs-texts.ts';

export function AnswerLine({ answer, t }: { answer: AnswerView; t: InstallsTexts }) {
  if (!answer.matched) {
    return (
      <p className="answer unmatched">
        {t.notMatched} <strong>{answer.reason}</strong>
      </p>
    );
  }
  const data = Object.entries(answer.data)
    .map(([key, value]) => `${key}=${value}`)
    .join(', ');
  return (
    <p className="answer matched">
      {t.matchedBy} <strong>{answer.method}</strong> ({answer.confidence}){data ? ` · ${data}` : ''}
    </p>
  );
}

export function WhyList({ explain, language }: { explain: ExplainView; language: Language }) {
  return (
    <ul className="why">
      {explanationLines(explain, language).map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}
