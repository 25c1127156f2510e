/**
 * What an endpoint's name resolves to (docs/webhooks.md#safety): production asks a DNS-over-HTTPS
 * resolver (JSON API) for the name's A and AAAA records and refuses a name any of whose addresses is
 * one a delivery may not reach (endpoint-url.ts). Answers are kept a few minutes per isolate, so a
 * delivery's check rarely costs a request. A resolver that does not answer refuses too: nothing is
 * sent to an address nobody checked.
 */
import { hostProblem } from './endpoint-url.ts';

/** Why a name may not be delivered to, and whether asking again later may help. */
export interface ResolveProblem {
  reason: string;
  /** True when the resolver failed rather than answered. */
  transient: boolean;
}

const TIMEOUT_MS = 3_000;
const KEEP_MS = 5 * 60_000;
const MAX_KEPT = 256;
const kept = new Map<string, { until: number; problem: ResolveProblem | null }>();

interface DnsAnswer {
  Status?: number;
  Answer?: { type?: number; data?: string }[];
}

async function lookup(resolver: string, name: string, type: 'A' | 'AAAA'): Promise<DnsAnswer> {
  const url = `${resolver}?${new URLSearchParams({ name, type })}`;
  const response = await fetch(url, {
    headers: { accept: 'application/dns-json' },
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  if (!response.ok) throw new Error(`resolver answered ${response.status}`);
  return response.json<DnsAnswer>();
}

async function check(resolver: string, name: string): Promise<ResolveProblem | null> {
  let answers: DnsAnswer[];
  try {
    answers = await Promise.all([lookup(resolver, name, 'A'), lookup(resolver, name, 'AAAA')]);
  } catch {
    return { reason: 'could not be resolved (the resolver did not answer)', transient: true };
  }
  const addresses = answers.flatMap((answer) =>
    (answer.Answer ?? []).flatMap((record) =>
      record.type === 1 && record.data ? [record.data] : record.type === 28 && record.data ? [`[${record.data}]`] : [],
    ),
  );
  if (addresses.length === 0) return { reason: 'must be a name that resolves to an address', transient: false };
  for (const address of addresses) {
    const problem = hostProblem(address);
    if (problem) return { reason: `must not resolve to ${problem} (${address})`, transient: false };
  }
  return null;
}

/** Why `hostname` may not receive deliveries by what it resolves to, or null; a literal address is not looked up. */
export async function resolvedProblem(
  hostname: string,
  resolver: string,
  now = Date.now(),
): Promise<ResolveProblem | null> {
  if (hostname.startsWith('[') || /^[\d.]+$/.test(hostname)) return null;
  const key = `${resolver} ${hostname}`;
  const known = kept.get(key);
  if (known && known.until > now) return known.problem;
  const problem = await check(resolver, hostname);
  if (kept.size >= MAX_KEPT) kept.clear();
  // A resolver's failure is not kept: the next call asks again.
  if (!problem?.transient) kept.set(key, { until: now + KEEP_MS, problem });
  return problem;
}
