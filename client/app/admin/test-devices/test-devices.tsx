/**
 * The test devices of the Test installs panel (docs/attribution.md, "Test devices"): a form that
 * registers an installation by app and install id, and the registered ones, each forgettable. The
 * install id goes to the admin API only: the worker keeps its keyed hash, shown here as the device.
 */
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import type { Language } from '../../../../shared/texts.ts';
import { errorText } from '../shared/admin-client.ts';
import { ErrorAlert } from '../shared/error-alert.tsx';
import type { SharedTexts } from '../shared/shared-texts.ts';
import type { TestDevicesApi, TestDeviceView } from './test-devices-api.ts';
import { type TestDevicesTexts, testDevicesTexts } from './test-devices-texts.ts';

/** The registered devices, and registering or forgetting one: each says what it did or why it failed. */
function useTestDevices(api: TestDevicesApi, t: SharedTexts, words: TestDevicesTexts) {
  const [devices, setDevices] = useState<TestDeviceView[] | null>(null);
  const [error, setError] = useState('');
  const [done, setDone] = useState('');

  const load = useCallback(async () => {
    try {
      setDevices(await api.list());
    } catch (failure) {
      setError(errorText(failure, t));
    }
  }, [api, t]);

  useEffect(() => {
    void load();
  }, [load]);

  /** Runs `change` with the notes cleared, then lists the devices again; a failure is said instead. */
  const act = async (change: () => Promise<void>) => {
    setError('');
    setDone('');
    try {
      await change();
      await load();
    } catch (failure) {
      setError(errorText(failure, t));
    }
  };

  const register = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const field = (name: string) => String(data.get(name) ?? '').trim();
    await act(async () => {
      const label = field('label');
      const device = await api.register({
        app: field('app'),
        installId: field('installId'),
        ...(label ? { label } : {}),
      });
      setDone(words.registered(device.device.slice(0, 8)));
      form.reset();
    });
  };

  const forget = (id: number) => act(() => api.forget(id));

  return { devices, error, done, register, forget };
}

export function TestDevices({ api, t, language }: { api: TestDevicesApi; t: SharedTexts; language: Language }) {
  const words = testDevicesTexts(language);
  const { devices, error, done, register, forget } = useTestDevices(api, t, words);
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
      <DeviceList devices={devices ?? []} t={t} words={words} onForget={(id) => void forget(id)} />
    </div>
  );
}

/** The registered devices, each with its keyed hash's start, its app and name, and "forget". */
function DeviceList({
  devices,
  t,
  words,
  onForget,
}: {
  devices: TestDeviceView[];
  t: SharedTexts;
  words: TestDevicesTexts;
  onForget: (id: number) => void;
}) {
  return (
    <ul className="test-list">
      {devices.map((device) => (
        <li key={device.id} data-test-device={device.device}>
          <div className="test-head">
            <span className="device" title={t.deviceHint}>
              {words.device} {device.device.slice(0, 8)}
            </span>
            <span>
              {device.app}
              {device.label ? ` · ${device.label}` : ''}
            </span>
            <button type="button" onClick={() => onForget(device.id)}>
              {words.forget}
            </button>
          </div>
        </li>
      ))}
    </ul>
  );
}
