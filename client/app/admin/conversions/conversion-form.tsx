/**
 * Adds or edits a conversion destination (docs/conversions.md#platforms): its platform (fixed once
 * made), a name, the platform's own settings, its token where the platform needs one (never shown
 * back: left empty on an edit, the kept one stays) and its event names, one `lander=platform` a line.
 */
import { type FormEvent, useState } from 'react';
import { CONVERSION_PLATFORMS, type ConversionPlatform, NEEDS_TOKEN } from '../../../../shared/conversions.ts';
import type { DestinationCreate, DestinationView } from './conversions-api.ts';
import type { ConversionsTexts } from './conversions-texts.ts';

/** Each platform's settings fields, as shared/conversions.ts's schemas name them. */
const FIELDS: Record<ConversionPlatform, readonly string[]> = {
  meta: ['datasetId', 'appId'],
  tiktok: ['tiktokAppId'],
  ga4: ['measurementId'],
  snap: ['snapAppId'],
  oceanengine: [],
  tencent: ['accountId', 'userActionSetId'],
  kuaishou: [],
  baidu: ['pageUrl'],
  postback: ['url', 'method', 'body'],
};

/** `register=CompleteRegistration` lines as the events map. */
export function eventsOf(text: string): Record<string, string> {
  const pairs = text
    .split('\n')
    .map((line) => line.split('=').map((part) => part.trim()))
    .filter(([from, to]) => from && to);
  return Object.fromEntries(pairs.map(([from = '', to = '']) => [from, to]));
}

/** The body of the form's fields; the token only when one was typed. */
function bodyOf(platform: ConversionPlatform, data: FormData): DestinationCreate {
  const settings: Record<string, string> = {};
  for (const field of FIELDS[platform]) {
    const value = String(data.get(field) ?? '').trim();
    if (value) settings[field] = value;
  }
  const token = String(data.get('token') ?? '').trim();
  return {
    platform,
    name: String(data.get('name') ?? '').trim(),
    settings,
    events: eventsOf(String(data.get('events') ?? '')),
    ...(token ? { token } : {}),
  };
}

function SettingField({ field, value, t }: { field: string; value: string; t: ConversionsTexts }) {
  if (field === 'method')
    return (
      <label>
        {t.fields[field]}
        <select name="method" defaultValue={value || 'GET'}>
          <option value="GET">GET</option>
          <option value="POST">POST</option>
        </select>
      </label>
    );
  if (field === 'body')
    return (
      <label className="wide">
        {t.fields[field]}
        <textarea name="body" rows={2} defaultValue={value} />
      </label>
    );
  return (
    <label className={field === 'url' ? 'wide' : undefined}>
      {t.fields[field]}
      <input name={field} defaultValue={value} required={field !== 'appId'} />
    </label>
  );
}

export function ConversionForm({
  t,
  editing,
  onSave,
  onCancel,
}: {
  t: ConversionsTexts;
  /** The destination being edited, or null to add one. */
  editing: DestinationView | null;
  onSave: (body: DestinationCreate) => Promise<boolean>;
  onCancel: () => void;
}) {
  const [platform, setPlatform] = useState<ConversionPlatform>(editing?.platform ?? 'meta');
  const save = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    if ((await onSave(bodyOf(platform, new FormData(form)))) && !editing) form.reset();
  };
  const settings = (editing?.settings ?? {}) as Record<string, string>;
  const events = Object.entries(editing?.events ?? {}).map(([from, to]) => `${from}=${to}`);
  return (
    <form
      key={editing?.id ?? `new-${platform}`}
      className="conversion-form"
      onSubmit={(event) => void save(event)}
      aria-label={editing ? t.editHeading : t.addHeading}
    >
      <label>
        {t.platform}
        <select
          name="platform"
          value={platform}
          disabled={editing !== null}
          onChange={(event) => setPlatform(event.target.value as ConversionPlatform)}
        >
          {CONVERSION_PLATFORMS.map((name) => (
            <option key={name} value={name}>
              {t.platforms[name]}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t.name}
        <input name="name" defaultValue={editing?.name ?? ''} maxLength={80} />
      </label>
      {FIELDS[platform].map((field) => (
        <SettingField key={field} field={field} value={settings[field] ?? ''} t={t} />
      ))}
      {NEEDS_TOKEN[platform] ? (
        <label>
          {t.token}
          <input
            name="token"
            type="password"
            autoComplete="off"
            required={!editing}
            placeholder={editing ? t.tokenKept : ''}
          />
        </label>
      ) : null}
      <label className="wide">
        {t.events}
        <textarea name="events" rows={2} defaultValue={events.join('\n')} placeholder="purchase=Purchase" />
      </label>
      <div className="controls">
        <button type="submit">{editing ? t.save : t.add}</button>
        {editing ? (
          <button type="button" className="small" onClick={onCancel}>
            {t.cancelEdit}
          </button>
        ) : null}
      </div>
    </form>
  );
}
