/**
 * The console's calls to `/api/webhooks` (docs/webhooks.md#admin-api), with the admin API's sign-in
 * headers; bodies and answers are the contract's own types (shared/webhooks.ts).
 */
import type {
  AttemptView,
  EndpointCreate,
  EndpointUpdate,
  EndpointView,
  EndpointWithSecret,
} from '../../../../shared/webhooks.ts';
import type { HttpClient } from '../../http-client.ts';

export type { AttemptView, EndpointView, EndpointWithSecret };

/** The answer of a test delivery. */
export interface TestResult {
  delivered: boolean;
  status: number;
  latencyMs: number;
  error: string;
}

/** The webhook calls, through `client` with `headers`. */
export function webhooksApi(client: HttpClient, headers: Record<string, string>) {
  const at = (id: string, tail = '') => `/api/webhooks/${encodeURIComponent(id)}${tail}`;
  return {
    async list(): Promise<EndpointView[]> {
      return (await client<{ endpoints: EndpointView[] }>('/api/webhooks', { headers })).endpoints;
    },
    create(body: EndpointCreate): Promise<EndpointWithSecret> {
      return client<EndpointWithSecret>('/api/webhooks', { method: 'POST', body, headers });
    },
    update(id: string, body: EndpointUpdate): Promise<EndpointView> {
      return client<EndpointView>(at(id), { method: 'PATCH', body, headers });
    },
    async remove(id: string): Promise<void> {
      await client<unknown>(at(id), { method: 'DELETE', headers });
    },
    rotate(id: string): Promise<EndpointWithSecret> {
      return client<EndpointWithSecret>(at(id, '/rotate'), { method: 'POST', headers });
    },
    test(id: string): Promise<TestResult> {
      return client<TestResult>(at(id, '/test'), { method: 'POST', headers });
    },
    async attempts(id: string): Promise<AttemptView[]> {
      return (await client<{ attempts: AttemptView[] }>(at(id, '/attempts?limit=100'), { headers })).attempts;
    },
    async resend(id: string, body: { id: string } | { from: string; to: string }): Promise<number> {
      return (await client<{ resent: number }>(at(id, '/resend'), { method: 'POST', body, headers })).resent;
    },
  };
}

export type WebhooksApi = ReturnType<typeof webhooksApi>;
