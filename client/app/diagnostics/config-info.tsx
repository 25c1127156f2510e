/** `/test`'s configuration rows (docs/screens.md): the config in use and the reachable download domain. */
import type { Language } from '../../../shared/texts.ts';
import { useHandoff, useLearned } from '../store.tsx';

const HEADING: Record<Language, string> = { en: 'Configuration', 'zh-CN': '配置' };

export function ConfigInfo() {
  const { language, config, appData, domains, apkParent } = useHandoff();
  const { downloadReachable } = useLearned();
  const rows: [string, string][] = [
    ['config', config.fallback ? `${config.revision} (fallback: ${config.fallback})` : config.revision],
    ['appVersions', appData.map((app) => `${['', 'Android', 'iOS', 'all'][app.plat]} ${app.version}`).join(', ')],
    ['domains', domains.join(', ') || '—'],
    [
      'apkParent',
      apkParent
        ? `${apkParent.file} · ${apkParent.version} · ${apkParent.size} bytes · sha256 ${apkParent.sha256}`
        : '—',
    ],
    ['downloadReachable', downloadReachable.init ? downloadReachable.url : `${downloadReachable.url} (probing…)`],
  ];
  return (
    <section className="config-info" aria-labelledby="config-heading">
      <h2 id="config-heading">{HEADING[language]}</h2>
      <table>
        <tbody>
          {rows.map(([key, value]) => (
            <tr key={key}>
              <th scope="row">{key}</th>
              <td data-row={key}>{value}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
