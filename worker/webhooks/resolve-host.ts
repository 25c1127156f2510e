/**
 * What an endpoint's name resolves to (docs/webhooks.md#safety): production asks a DNS-over-HTTPS
 * resolver (JSON API) for the name's A and AAAA records and refuses a name any of whose addresses is
 * one a delivery may not reach, judged exactly as a literal address in a URL is (endpoint-url.ts).
 * Answers are kept a few minutes per isolate, so a delivery's check rarely costs a request. A
 * resolver that does not answer refuses too: nothing is sent to an address nobody checked.
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

/**
 * A record's address as the URL parser writes a host (`[::ffff:a9fe:a9fe]` for the
 * `::ffff:169.254.169.254` a resolver writes), so an answer is judged exactly as a literal URL is;
 * null when it is no address of its type.
 */
function normalised(version: 4 | 6, data: string): string | null {
  const text = data.trim();
  const spelled = version === 4 ? /^[\d.]+$/.test(text) : /^[\da-f:.]+$/i.test(text);
  const url = `http://${version === 6 ? `[${text}]` : text}/`;
  if (!spelled || !URL.canParse(url)) return null;
  const { hostname } = new URL(url);
  return hostname.startsWith('[') === (version === 6) ? hostname : null;
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
      (record.type === 1 || record.type === 28) && typeof record.data === 'string' ? [record] : [],
    ),
  );
  if (addresses.length === 0) return { reason: 'must be a name that resolves to an address', transient: false };
  for (const { type, data = '' } of addresses) {
    const host = normalised(type === 28 ? 6 : 4, data);
    const problem = host === null ? `an unreadable address (${data.slice(0, 60)})` : hostProblem(host);
    if (problem) return { reason: `must not resolve to ${problem}`, transient: false };
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
