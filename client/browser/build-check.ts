/**
 * Build freshness (docs/builds.md): one hour after the app is ready, and every hour after, ask
 * which build is latest. The answer is learned state (the diagnostics screen shows it); a build
 * other than the running one makes the next navigation a full page load (see navigation-guard).
 */

import { fetchLatestBuild } from '../app/diagnostics/build-api.ts';
import type { LearnedStore } from '../app/store.tsx';

export const BUILD_CHECK_INTERVAL_MS = 3_600_000;

export interface BuildWatch {
  /** True once a build other than the running one is known to be the latest. */
  isStale(): boolean;
}

export function watchBuilds(running: string, learned: LearnedStore, interval = BUILD_CHECK_INTERVAL_MS): BuildWatch {
  async function check(): Promise<void> {
    try {
      const latest = await fetchLatestBuild();
      learned.update({ latestBuildId: latest.id });
      // For tests and QA, like `data-hydrated`: the answer of the last check.
      document.documentElement.dataset.latestBuild = latest.id;
    } catch {
      // Offline or a server hiccup: nothing is known, so nothing changes; ask again next hour.
    } finally {
      setTimeout(check, interval);
    }
  }
  setTimeout(check, interval);
  return {
    isStale() {
      const latest = learned.get().latestBuildId;
      return latest !== undefined && latest !== running;
    },
  };
}
