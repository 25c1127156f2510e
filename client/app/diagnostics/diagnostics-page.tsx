/** `/test` — diagnostics for operators and QA (docs/screens.md), never indexed. */
import { texts } from '../../../shared/texts.ts';
import { useHandoff, useLearned } from '../store.tsx';
import { BuildRows } from './build-info.tsx';
import { ConfigInfo } from './config-info.tsx';
import { DeviceComparison } from './device-comparison.tsx';
import { IdentityRows } from './identity-rows.tsx';

export function Component() {
  const store = useHandoff();
  const { deviceInfo } = useLearned();
  const t = texts(store.language);
  const rows: [string, string][] = [
    ['build', store.buildId],
    ['environment', store.env],
    ['operatingSystem', deviceInfo.operatingSystem],
    ['browser', deviceInfo.browser],
    ['inApp', deviceInfo.inApp?.name ?? '—'],
    ['bot', String(deviceInfo.bot)],
    ['downloadOrigin', store.downloadOrigin],
  ];
  return (
    <article className="screen diagnostics">
      <h1>{t.testHeading}</h1>
      <table>
        <tbody>
          {rows.map(([key, value]) => (
            <tr key={key}>
              <th scope="row">{key}</th>
              <td>{value}</td>
            </tr>
          ))}
          <BuildRows />
          <IdentityRows />
        </tbody>
      </table>
      <DeviceComparison />
      <ConfigInfo />
    </article>
  );
}
