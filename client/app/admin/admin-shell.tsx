/**
 * The console before it knows who is calling (docs/operators.md#the-console): what the worker renders
 * for `/admin` and the browser's first render of admin-page.tsx, the same markup so the page hydrates.
 * The worker's bundle takes this screen in place of the console (`#admin-page` in package.json's
 * `imports`, condition `workerd`): the console is never rendered on the worker, so its panels, words
 * and API client stay out of the worker's bundle.
 */
import type { ReactNode } from 'react';
import type { Language } from '../../../shared/texts.ts';
import { useHandoff } from '../store.tsx';

/** The words of the screen before the console knows who is calling. */
export const SHELL_WORDS: Record<Language, { heading: string; checking: string }> = {
  en: { heading: 'Console', checking: 'Checking who you are…' },
  'zh-CN': { heading: '控制台', checking: '正在确认身份…' },
};

/** The console's frame around its sign-in panel: the state it is in, kept out of indexes. */
export function AdminFrame({ session, children }: { session: string; children: ReactNode }) {
  return (
    <article className="screen admin" data-session={session}>
      <meta name="robots" content="noindex, nofollow" />
      {children}
    </article>
  );
}

/** The sign-in panel while the console asks who is calling. */
export function CheckingPanel({ language }: { language: Language }) {
  const words = SHELL_WORDS[language];
  return (
    <section className="panel sign-in">
      <h1>{words.heading}</h1>
      <p>{words.checking}</p>
    </section>
  );
}

/** `/admin` as the worker renders it. */
export function Component() {
  const { language } = useHandoff();
  return (
    <AdminFrame session="checking">
      <CheckingPanel language={language} />
    </AdminFrame>
  );
}
