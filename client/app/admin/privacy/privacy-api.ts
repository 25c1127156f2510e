/**
 * The privacy room's calls (docs/privacy.md#requests-erasure-and-access): `GET /api/privacy/requests`,
 * the app's requests newest first with their receipts; `POST` one, in OpenDSR's shape; `DELETE` a
 * pending one; an access request's data (`GET …/<id>/data`); and a receipt or data saved as a JSON
 * file. The shapes are the API's own (shared/privacy.ts).
 */
import type {
  IdentityType,
  PrivacyList,
  PrivacyRequest,
  PrivacyRequestAnswer,
  PrivacyStatus,
  Receipt,
  RequestType,
} from '../../../../shared/privacy.ts';
import type { HttpClient } from '../../http-client.ts';

export type { IdentityType, PrivacyRequest, PrivacyRequestAnswer, PrivacyStatus, Receipt, RequestType };

const BASE = '/api/privacy/requests';

/** Saves `value` as the JSON file `name`, as the browser saves a download. */
export function saveJson(name: string, value: unknown): void {
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([`${JSON.stringify(value, null, 2)}\n`], { type: 'application/json' }));
  link.download = name;
  link.click();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
}

/** The privacy calls, through `client` with `headers`. */
export function privacyApi(client: HttpClient, headers: Record<string, string>) {
  return {
    async list(): Promise<PrivacyStatus[]> {
      return (await client<PrivacyList>(BASE, { headers })).requests;
    },
    /** Files a request: the answer holds its id and, with callbacks, their secret shown this once. */
    make(body: PrivacyRequest): Promise<PrivacyRequestAnswer> {
      return client<PrivacyRequestAnswer>(BASE, { method: 'POST', body, headers });
    },
    async cancel(id: string): Promise<void> {
      await client<unknown>(`${BASE}/${encodeURIComponent(id)}`, { method: 'DELETE', headers });
    },
    /** Everything kept about an access request's subject, saved as `access-<id>.json`. */
    async downloadData(id: string): Promise<void> {
      const data = await client<unknown>(`${BASE}/${encodeURIComponent(id)}/data`, { headers });
      saveJson(`access-${id}.json`, data);
    },
  };
}

export type PrivacyApi = ReturnType<typeof privacyApi>;
