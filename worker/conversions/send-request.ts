/**
 * One attempt of one request to a platform (docs/conversions.md#delivery): no redirect followed, at
 * most 10 seconds, at most 4 KiB of the answer read for the log. Never throws. The error it reports
 * names the status and the platform's words, never the address or the body, where a token may be.
 * Outside production, `CONVERSIONS_ORIGIN` sends every platform's request to one local origin instead
 * (`<origin>/<platform><path>`), the tests' fake of the platforms.
 */
import type { ConversionPlatform } from '../../shared/conversions.ts';
import { settingsOf } from '../settings.ts';
import { checkEndpointUrl } from '../webhooks/endpoint-url.ts';
import { parseRetryAfter, type Verdict, verdictOf } from '../webhooks/retry-policy.ts';
import type { PlatformRequest } from './platforms/platform.ts';

export const CONVERSION_TIMEOUT_MS = 10_000;
const MAX_ANSWER_CHARS = 4096;

export interface SendResult {
  verdict: Verdict;
  /** HTTP status; 0 for no answer. */
  status: number;
  latencyMs: number;
  error: string;
  retryAfter?: number | undefined;
}

/** Where `request` goes in `env`: its own URL, or the local origin standing in for every platform. */
export function addressOf(env: Env, platform: ConversionPlatform, url: string): string {
  const origin = env.CONVERSIONS_ORIGIN;
  if (!origin || settingsOf(env).env === 'production' || platform === 'postback') return url;
  const parsed = new URL(url);
  return `${origin}/${platform}${parsed.pathname}${parsed.search}`;
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim().slice(0, 160);

/** Sends `request` once; a postback's filled URL is checked again first (its macros could not be checked when saved). */
export async function sendRequest(
  env: Env,
  platform: ConversionPlatform,
  request: PlatformRequest,
  timeoutMs = CONVERSION_TIMEOUT_MS,
): Promise<SendResult> {
  const started = Date.now();
  if (platform === 'postback') {
    const check = checkEndpointUrl(request.url, settingsOf(env).env);
    if (!check.ok) return { verdict: 'final', status: 0, latencyMs: 0, error: `url: ${check.reason}` };
  }
  try {
    const response = await fetch(addressOf(env, platform, request.url), {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const latencyMs = Date.now() - started;
    const text = (await response.text().catch(() => '')).slice(0, MAX_ANSWER_CHARS);
    const verdict = verdictOf(response.status);
    const error = verdict === 'delivered' ? '' : `HTTP ${response.status}: ${oneLine(text)}`;
    const retryAfter = parseRetryAfter(response.headers.get('retry-after'));
    return { verdict, status: response.status, latencyMs, error, retryAfter };
  } catch (error) {
    const latencyMs = Date.now() - started;
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const what = timedOut ? `no answer within ${Math.round(timeoutMs / 1000)} s` : 'no answer: the connection failed';
    return { verdict: 'retry', status: 0, latencyMs, error: what };
  }
}
