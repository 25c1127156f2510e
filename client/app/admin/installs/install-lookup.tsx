/**
 * Looks one install up by app and install id (`GET /api/installs`, docs/operators.md): its answer and
 * why, a real device's as well as a test device's. The install id is sent to the admin API only; the
 * worker keeps no install id, it finds the answer by its keyed hash. Its fraud flags are shown as the
 * dashboard says (the fraud room's list).
 */
import { type FormEvent, type ReactNode, useState } from 'react';
import type { Language } from '../../../../shared/texts.ts';
import { errorText } from '../shared/admin-client.ts';
import { ErrorAlert } from '../shared/error-alert.tsx';
import { AnswerLine, WhyList } from './answer-view.tsx';
import type { InstallLookupView, InstallsApi } from './installs-api.ts';
import type { InstallsTexts } from './installs-texts.ts';

/** How the dashboard shows an install's fraud flags (the fraud room's list), beside its answer. */
export type FlagsView = (flags: InstallLookupView['flags']) => ReactNode;

export function InstallLookup({
  api,
  t,
  language,
  flags,
}: {
  api: InstallsApi;
  t: InstallsTexts;
  language: Language;
  flags: FlagsView;
}) {
  const [found, setFound] = useState<InstallLookupView | null>(null);
  const [error, setError] = useState('');
  const lookUp = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const field = (name: string) => String(form.get(name) ?? '').trim();
    setError('');
    setFound(null);
    try {
      setFound(await api.install(field('app'), field('installId')));
    } catch (failure) {
      setError(errorText(failure, t));
    }
  };
  return (
    <div className="install-lookup">
      <form onSubmit={lookUp}>
        <label>
          {t.appId}
          <input name="app" required autoComplete="off" />
        </label>
        <label>
          {t.installId}
          <input name="installId" required autoComplete="off" />
        </label>
        <button type="submit">{t.lookUp}</button>
      </form>
      <ErrorAlert message={error} />
      {found ? (
        <div className="lookup-result" data-lookup={found.answer.matched ? 'matched' : 'unmatched'}>
          <AnswerLine answer={found.answer} t={t} />
          <WhyList explain={found.explain} language={language} />
          {flags(found.flags)}
        </div>
      ) : null}
    </div>
  );
}
