/**
 * Server-detected and browser-detected device info side by side (docs/screens.md). Until the
 * browser has refined the store, its column says so; server and first client render agree, so
 * hydration matches. Rows where the two differ are marked.
 */

import type { Verdict } from '../../../shared/device/verdict.ts';
import type { DeviceInfo, InApp } from '../../../shared/device.ts';
import type { Language } from '../../../shared/texts.ts';
import { useHandoff, useLearned } from '../store.tsx';

const TEXTS: Record<Language, { deviceHeading: string; deviceServer: string; deviceBrowser: string }> = {
  en: { deviceHeading: 'Device', deviceServer: 'Worker', deviceBrowser: 'Browser' },
  'zh-CN': { deviceHeading: '设备', deviceServer: '服务端', deviceBrowser: '浏览器' },
};

/** The browser column before refinement: a mark, not a word, so it needs no translation. */
const PENDING = '…';

const FIELDS: (keyof DeviceInfo)[] = [
  'operatingSystem',
  'mobile',
  'inApp',
  'bot',
  'browser',
  'os',
  'osVersion',
  'device_system_name',
  'device_version',
  'device_model',
  'device_model_name',
  'width',
  'height',
  'device_locale',
  'language',
  'referrer',
  'userAgent',
];

function inAppText(inApp: InApp | null): string {
  if (!inApp) return '—';
  const blocked = [inApp.blocksDownloads && 'downloads', inApp.blocksSchemes && 'schemes'].filter(Boolean);
  const details = [inApp.category, inApp.version, blocked.length > 0 && `blocks ${blocked.join(', ')}`];
  return `${inApp.name} (${details.filter(Boolean).join('; ')})`;
}

function show(device: Verdict | DeviceInfo, field: keyof DeviceInfo): string {
  // The worker hands `/test` its whole detection; any other page, only the verdict.
  const value = field in device ? device[field as keyof typeof device] : '';
  if (field === 'inApp') return inAppText(device.inApp);
  if (value === '' || value === null) return '—';
  return String(value);
}

/** The device table of /test: one row per `DeviceInfo` field, worker and browser columns. */
export function DeviceComparison() {
  const { language, deviceInfo: server } = useHandoff();
  const { deviceInfo } = useLearned();
  const t = TEXTS[language];
  const browser = deviceInfo === server ? null : deviceInfo;
  return (
    <section className="device-comparison" aria-labelledby="device-heading" data-refined={browser ? 'true' : 'false'}>
      <h2 id="device-heading">{t.deviceHeading}</h2>
      <table>
        <thead>
          <tr>
            <td />
            <th scope="col">{t.deviceServer}</th>
            <th scope="col">{t.deviceBrowser}</th>
          </tr>
        </thead>
        <tbody>
          {FIELDS.map((field) => {
            const serverText = show(server, field);
            const browserText = browser ? show(browser, field) : PENDING;
            return (
              <tr
                key={field}
                data-field={field}
                className={browser && serverText !== browserText ? 'differs' : undefined}
              >
                <th scope="row">{field}</th>
                <td data-side="server">{serverText}</td>
                <td data-side="browser">{browserText}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}
