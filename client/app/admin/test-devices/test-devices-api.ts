/**
 * The console's calls to `/api/test-devices` (docs/attribution.md, "Test devices"), with the admin
 * API's sign-in headers: the registered devices, registering one, forgetting one.
 */
import type { TestDeviceView } from '../../../../shared/admin-contract.ts';
import type { HttpClient } from '../../http-client.ts';

export type { TestDeviceView };

/** What registering a device sends: the installation, and a name the operator knows it by. */
export interface TestDeviceRequest {
  app: string;
  installId: string;
  label?: string;
}

/** The test device calls, through `client` with `headers`. */
export function testDevicesApi(client: HttpClient, headers: Record<string, string>) {
  return {
    async list(): Promise<TestDeviceView[]> {
      return (await client<{ devices: TestDeviceView[] }>('/api/test-devices', { headers })).devices;
    },
    /** Registers the device (ofetch sends the object as `application/json`, the only body admin writes take). */
    register(body: TestDeviceRequest): Promise<TestDeviceView> {
      return client<TestDeviceView>('/api/test-devices', { method: 'POST', body, headers });
    },
    async forget(id: number): Promise<void> {
      await client<unknown>(`/api/test-devices/${id}`, { method: 'DELETE', headers });
    },
  };
}

export type TestDevicesApi = ReturnType<typeof testDevicesApi>;
