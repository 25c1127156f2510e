/** The store postbacks room's call to `GET /api/store-postbacks` (docs/store-postbacks.md). */
import type { StorePostbacksView } from '../../../../shared/store-postbacks.ts';
import type { HttpClient } from '../../http-client.ts';

export type { StorePostbacksView };

/** The store postbacks call, through `client` with `headers`. */
export function storePostbacksApi(client: HttpClient, headers: Record<string, string>) {
  return {
    /** Apple's signed postbacks counted since `since` (a day), by day (docs/store-postbacks.md). */
    storePostbacks(since: string): Promise<StorePostbacksView> {
      return client<StorePostbacksView>(`/api/store-postbacks?${new URLSearchParams({ since })}`, { headers });
    },
  };
}

export type StorePostbacksApi = ReturnType<typeof storePostbacksApi>;
