/** `/test`'s configuration rows (docs/screens.md): the config in use and the reachable download domain. */
import { useHandoff, useLearned } from '../store.tsx';

export function ConfigInfo() {
  const { config, appData, domains } = useHandoff();
  const { downloadReachable } = useLearned();
  const rows: [string, string][] = [
    ['config', config.fallback ? `${config.revision} (fallback: ${config.fallback})` : config.revision],
    ['appVersions', appData.map((app) => `${['', 'Android', 'iOS', 'all'][app.plat]} ${app.version}`).join(', ')],
    ['domains', domains.join(', ') || '—'],
    ['downloadReachable', downloadReachable.init ? downloadReachable.url : `${downloadReachable.url} (probing…)`],
  ];
  return (
    <table className="config-info">
      <caption>Configuration</caption>
      <tbody>
        {rows.map(([key, value]) => (
          <tr key={key}>
            <th scope="row">{key}</th>
            <td data-row={key}>{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
