import { beforeEach, describe, expect, it, vi } from 'vitest';
import { routeRulesLoader } from '../../client/browser/app-manifest.ts';

const fetchBuildManifest = vi.hoisted(() => vi.fn());
vi.mock('../../client/app/diagnostics/build-api.ts', async (original) => ({
  ...(await original<typeof import('../../client/app/diagnostics/build-api.ts')>()),
  fetchBuildManifest,
}));

/** An error shaped like ofetch's FetchError. */
const httpError = (status: number) => Object.assign(new Error(`HTTP ${status}`), { status });

const RULES = [{ path: '/old', redirect: { to: '/' } }];

beforeEach(() => {
  fetchBuildManifest.mockReset();
});

describe("the running build's route rules (docs/builds.md)", () => {
  it('are the matcher of the manifest named by the build id, fetched once', async () => {
    fetchBuildManifest.mockResolvedValue({ id: 'b1', timestamp: 1, matcher: RULES });
    const load = routeRulesLoader('b1');
    expect(await load()).toEqual(RULES);
    expect(await load()).toEqual(RULES);
    expect(fetchBuildManifest).toHaveBeenCalledTimes(1);
    expect(fetchBuildManifest).toHaveBeenCalledWith('b1');
  });

  it('are silently none when the manifest fetch answers 404 or 403', async () => {
    for (const status of [404, 403]) {
      fetchBuildManifest.mockRejectedValueOnce(httpError(status));
      expect(await routeRulesLoader('b1')()).toEqual([]);
    }
  });

  it('rethrow any other failure, and are asked for again next time', async () => {
    fetchBuildManifest.mockRejectedValueOnce(httpError(500));
    const load = routeRulesLoader('b1');
    await expect(load()).rejects.toThrow('HTTP 500');
    fetchBuildManifest.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await expect(load()).rejects.toThrow('Failed to fetch');
    fetchBuildManifest.mockResolvedValueOnce({ id: 'b1', timestamp: 1, matcher: RULES });
    expect(await load()).toEqual(RULES);
    expect(fetchBuildManifest).toHaveBeenCalledTimes(3);
  });
});
