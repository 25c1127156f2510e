/**
 * Files a privacy request (docs/privacy.md#requests-erasure-and-access): erasure or access, one
 * identity as the app or the page sent it (an install id with its package or bundle id), and an
 * optional status callback URL. The id goes to the API as typed and is not kept by the console.
 */
import { type FormEvent, useState } from 'react';
import type { IdentityType, PrivacyRequest, RequestType } from './privacy-api.ts';
import type { PrivacyTexts } from './privacy-texts.ts';

const REQUEST_TYPES: readonly RequestType[] = ['erasure', 'access'];
const IDENTITY_TYPES: readonly IdentityType[] = ['install_id', 'user_id', 'visitor_id'];

/** The OpenDSR body of the form's fields. */
function requestOf(data: FormData): PrivacyRequest {
  const identity = String(data.get('identity_type')) as IdentityType;
  const property = String(data.get('property_id') ?? '').trim();
  const callback = String(data.get('callback') ?? '').trim();
  return {
    subject_request_type: String(data.get('type')) as RequestType,
    subject_identities: [
      {
        identity_type: identity,
        identity_value: String(data.get('identity_value') ?? '').trim(),
        identity_format: 'raw',
      },
    ],
    ...(identity === 'install_id' && property ? { property_id: property } : {}),
    submitted_time: new Date().toISOString(),
    api_version: '0.1',
    ...(callback ? { status_callback_urls: [callback] } : {}),
  };
}

export function PrivacyForm({ t, onFile }: { t: PrivacyTexts; onFile: (body: PrivacyRequest) => Promise<boolean> }) {
  const [identity, setIdentity] = useState<IdentityType>('install_id');
  const file = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    if (await onFile(requestOf(new FormData(form)))) {
      form.reset();
      setIdentity('install_id');
    }
  };
  return (
    <form className="privacy-form" onSubmit={(event) => void file(event)} aria-label={t.fileHeading}>
      <label>
        {t.type}
        <select name="type" defaultValue="erasure">
          {REQUEST_TYPES.map((type) => (
            <option key={type} value={type}>
              {t.types[type]}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t.identityType}
        <select
          name="identity_type"
          value={identity}
          onChange={(event) => setIdentity(event.target.value as IdentityType)}
        >
          {IDENTITY_TYPES.map((type) => (
            <option key={type} value={type}>
              {t.identities[type]}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t.identityValue}
        <input name="identity_value" required maxLength={200} pattern="[!-~]+" autoComplete="off" spellCheck={false} />
      </label>
      {identity === 'install_id' ? (
        <label>
          {t.propertyId}
          <input name="property_id" required maxLength={200} pattern="[\w.\-]+" placeholder="com.example.app" />
        </label>
      ) : null}
      <label>
        {t.callback}
        <input name="callback" type="url" maxLength={2048} placeholder="https://" />
      </label>
      <button type="submit">{t.file}</button>
    </form>
  );
}
