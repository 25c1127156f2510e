/**
 * The console's calls to `/api/keys` and `/api/members` (docs/operators.md#api-keys, #members), with
 * the admin API's sign-in headers: list, make and revoke keys; list, add or change and remove members.
 */
import type { Role, Scope } from '../../../../shared/roles.ts';
import type { KeyRequest, KeyView, MemberView, NewKey } from '../../../../shared/team.ts';
import type { HttpClient } from '../../http-client.ts';

export type { KeyRequest, KeyView, MemberView, NewKey, Role, Scope };

/** The team calls, through `client` with `headers`. */
export function teamApi(client: HttpClient, headers: Record<string, string>) {
  return {
    async keys(): Promise<KeyView[]> {
      return (await client<{ keys: KeyView[] }>('/api/keys', { headers })).keys;
    },
    /** Makes a key: the answer holds the key, shown this once. */
    makeKey(body: KeyRequest): Promise<NewKey> {
      return client<NewKey>('/api/keys', { method: 'POST', body, headers });
    },
    async revokeKey(id: string): Promise<void> {
      await client<unknown>(`/api/keys/${encodeURIComponent(id)}`, { method: 'DELETE', headers });
    },
    async members(): Promise<MemberView[]> {
      return (await client<{ members: MemberView[] }>('/api/members', { headers })).members;
    },
    setRole(subject: string, role: Role): Promise<MemberView> {
      return client<MemberView>(`/api/members/${encodeURIComponent(subject)}`, {
        method: 'PUT',
        body: { role },
        headers,
      });
    },
    async removeMember(subject: string): Promise<void> {
      await client<unknown>(`/api/members/${encodeURIComponent(subject)}`, { method: 'DELETE', headers });
    },
  };
}

export type TeamApi = ReturnType<typeof teamApi>;
