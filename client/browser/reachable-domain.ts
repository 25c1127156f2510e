/**
 * Finds the first download domain that answers (docs/config.md), once the page is idle (enhance.ts).
 *
 * "Answers" means the HTTP exchange completes: a `no-cors` fetch of a small resource resolves with
 * an opaque response, whatever its status (the download hosts send no CORS headers, so the status
 * cannot be read — and any status proves the host is reachable from this network). A DNS failure,
 * a refused connection, a TLS error or no answer within the timeout means the domain is down.
 * Domains are tried in order; none answering leaves `downloadOrigin`.
 */
import type { Handoff } from '../../shared/handoff.ts';
import type { LearnedStore } from '../app/store.tsx';

/** Each domain gets this long before the next is tried. */
export const PROBE_TIMEOUT_MS = 1500;

export async function firstReachable(
  domains: readonly string[],
  path: string,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<string | null> {
  for (const domain of domains) {
    try {
      await fetch(`${domain}${path}`, {
        mode: 'no-cors',
        cache: 'no-store',
        credentials: 'omit',
        signal: AbortSignal.timeout(timeoutMs),
      });
      return domain;
    } catch {
      // down from here: try the next one
    }
  }
  return null;
}

/**
 * Probes the domains and learns `downloadReachable = { init: true, url }`, then marks
 * `<html data-download-probed="true">` so tests can wait for the answer instead of for time.
 */
export async function probeDownloadDomains(
  { domains, commonConfig, downloadOrigin }: Handoff,
  learned: LearnedStore,
): Promise<void> {
  const url = (await firstReachable(domains, commonConfig.probe_path)) ?? downloadOrigin;
  learned.update({ downloadReachable: { init: true, url } });
  document.documentElement.dataset.downloadProbed = 'true';
}
