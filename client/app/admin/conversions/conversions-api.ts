/**
 * The console's calls to `/api/conversions/destinations` (docs/conversions.md#admin-api), with the
 * admin API's sign-in headers; bodies and answers are the contract's own types (shared/conversions.ts).
 */
import type {
  ConversionAttemptView,
  ConversionTestResult,
  DestinationCreate,
  DestinationUpdate,
  DestinationView,
} from '../../../../shared/conversions.ts';
import type { HttpClient } from '../../http-client.ts';

export type { ConversionAttemptView, ConversionTestResult, DestinationCreate, DestinationUpdate, DestinationView };

/** The conversion destination calls, through `client` with `headers`. */
export function conversionsApi(client: HttpClient, headers: Record<string, string>) {
  const base = '/api/conversions/destinations';
  const at = (id: string, tail = '') => `${base}/${encodeURIComponent(id)}${tail}`;
  return {
    async list(): Promise<DestinationView[]> {
      return (await client<{ destinations: DestinationView[] }>(base, { headers })).destinations;
    },
    create(body: DestinationCreate): Promise<DestinationView> {
      return client<DestinationView>(base, { method: 'POST', body, headers });
    },
    update(id: string, body: DestinationUpdate): Promise<DestinationView> {
      return client<DestinationView>(at(id), { method: 'PATCH', body, headers });
    },
    async remove(id: string): Promise<void> {
      await client<unknown>(at(id), { method: 'DELETE', headers });
    },
    test(id: string): Promise<ConversionTestResult> {
      return client<ConversionTestResult>(at(id, '/test'), { method: 'POST', headers });
    },
    async attempts(id: string): Promise<ConversionAttemptView[]> {
      return (await client<{ attempts: ConversionAttemptView[] }>(at(id, '/attempts?limit=100'), { headers })).attempts;
    },
  };
}

export type ConversionsApi = ReturnType<typeof conversionsApi>;
