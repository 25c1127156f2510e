/**
 * The test devices of the Test installs panel (docs/attribution.md, "Test devices"): a form that
 * registers an installation by app and install id, and the registered ones, each forgettable. The
 * install id goes to the admin API only: the worker keeps its keyed hash, shown here as the device.
 */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import type { Language } from '../../../shared/texts.ts';
import { type AdminApi, errorText } from './admin-api.ts';
import type { AdminTexts } from './admin-texts.ts';
import { ErrorAlert } from './error-alert.tsx';
import type { TestDeviceView } from './test-devices-api.ts';
import { testDevicesTexts } from './test-devices-texts.ts';

export function TestDevices({ api, t, language }: { api: AdminApi; t: AdminTexts; language: Language }) {
  const words = testDevicesTexts(language);
  const [devices, setDevices] = useState<TestDeviceView[] | null>(null);
  const [error, setError] = useState('');
  const [done, setDone] = useState('');

  const load = useCallback(async () => {
    try {
      setDevices(await api.testDevices.list());
    } catch (failure) {
      setError(errorText(failure, t));
    }
  }, [api, t]);

  useEffect(() => {
    void load();
  }, [load]);

  const register = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const field = (name: string) => String(data.get(name) ?? '').trim();
    setError('');
    setDone('');
    try {
      const label = field('label');
      const device = await api.testDevices.register({
        app: field('app'),
        installId: field('installId'),
        ...(label ? { label } : {}),
      });
      setDone(words.registered(device.device.slice(0, 8)));
      form.reset();
      await load();
    } catch (failure) {
      setError(errorText(failure, t));
    }
  };

  const forget = async (id: number) => {
    setError('');
    setDone('');
    try {
      await api.testDevices.forget(id);
      await load();
    } catch (failure) {
      setError(errorText(failure, t));
    }
  };

  return (
    <div className="install-lookup test-devices">
      <h3>{words.heading}</h3>
      <p className="hint">{words.hint}</p>
      <form onSubmit={register} aria-label={words.heading}>
        <label>
          {words.app}
          <input name="app" required autoComplete="off" />
        </label>
        <label>
          {words.installId}
          <input name="installId" required autoComplete="off" />
        </label>
        <label>
          {words.label}
          <input name="label" maxLength={60} autoComplete="off" />
        </label>
        <button type="submit">{words.register}</button>
      </form>
      <ErrorAlert message={error} />
      {done ? (
        <p className="done" role="status">
          {done}
        </p>
      ) : null}
      {devices?.length === 0 ? <p className="empty">{words.none}</p> : null}
      <ul className="test-list">
        {(devices ?? []).map((device) => (
          <li key={device.id} data-test-device={device.device}>
            <div className="test-head">
              <span className="device" title={t.deviceHint}>
                {words.device} {device.device.slice(0, 8)}
              </span>
              <span>
                {device.app}
                {device.label ? ` · ${device.label}` : ''}
              </span>
              <button type="button" onClick={() => void forget(device.id)}>
                {words.forget}
              </button>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
