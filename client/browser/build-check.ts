/**
 * Build freshness (docs/builds.md): one hour after the app is ready, and every hour after, ask
 * which build is latest. The answer goes into the store (the diagnostics screen shows it); a build
 * other than the running one makes the next navigation a full page load (see navigation-guard).
 */
import { fetchLatestBuild } from '../app/diagnostics/build-api.ts';
import type { Store } from '../app/store.tsx';

export const BUILD_CHECK_INTERVAL_MS = 3_600_000;

export interface BuildWatch {
  /** True once a build other than the running one is known to be the latest. */
  isStale(): boolean;
}

export function watchBuilds(store: Store, interval = BUILD_CHECK_INTERVAL_MS): BuildWatch {
  const running = store.get().buildId;
  async function check(): Promise<void> {
    try {
      const latest = await fetchLatestBuild();
      store.update({ latestBuildId: latest.id });
    } catch {
      // Offline or a server hiccup: nothing is known, so nothing changes; ask again next hour.
    } finally {
      setTimeout(check, interval);
    }
  }
  setTimeout(check, interval);
  return {
    isStale() {
      const latest = store.get().latestBuildId;
      return latest !== undefined && latest !== running;
    },
  };
}
