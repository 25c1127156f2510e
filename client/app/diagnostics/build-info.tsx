/**
 * Rows of the diagnostics table (docs/screens.md) for the newest deployed build, beside the
 * running one: asked for once when the screen opens, unless the hourly check already knows.
 */
import { useEffect } from 'react';
import type { Language } from '../../../shared/texts.ts';
import { useHandoff, useLearned, useLearnedStore } from '../store.tsx';
import { fetchLatestBuild } from './build-api.ts';

/** Said after the latest build's id when it is the one this page runs. */
const THIS_PAGE: Record<Language, string> = { en: ' (this page)', 'zh-CN': '（本页）' };

export function BuildRows() {
  const store = useLearnedStore();
  const { buildId, language } = useHandoff();
  const { latestBuildId } = useLearned();

  useEffect(() => {
    if (store.get().latestBuildId) return;
    let live = true;
    fetchLatestBuild()
      .then((latest) => live && store.update({ latestBuildId: latest.id }))
      .catch((error: unknown) => console.warn('Lander: the latest build is unknown', error));
    return () => {
      live = false;
    };
  }, [store]);

  return (
    <tr>
      <th scope="row">latestBuild</th>
      <td data-build={latestBuildId ?? ''}>
        {latestBuildId ?? '—'}
        {latestBuildId === buildId ? THIS_PAGE[language] : null}
      </td>
    </tr>
  );
}
