/**
 * The test installs room's calls (docs/operators.md): the answers test devices got
 * (`/api/test-installs`) and one install's answer and why (`/api/installs`).
 */
import type { InstallLookupView, TestInstallView } from '../../../../shared/admin-contract.ts';
import type { HttpClient } from '../../http-client.ts';

export type { InstallLookupView, TestInstallView };

/** The install calls, through `client` with `headers`. */
export function installsApi(client: HttpClient, headers: Record<string, string>) {
  return {
    /** Test devices' answers, newest first; with `after`, only those newer than that id. */
    async testInstalls(after?: number): Promise<TestInstallView[]> {
      const query = after ? `?after=${after}` : '';
      return (await client<{ installs: TestInstallView[] }>(`/api/test-installs${query}`, { headers })).installs;
    },
    /** One install's answer and why, test or not. */
    install(app: string, installId: string): Promise<InstallLookupView> {
      return client<InstallLookupView>(`/api/installs?${new URLSearchParams({ app, installId })}`, { headers });
    },
  };
}

export type InstallsApi = ReturnType<typeof installsApi>;
