import { exports } from 'cloudflare:workers';

export const AGENTS = {
  iPhone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
  android:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
  desktop:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  whatsapp: 'WhatsApp/2.23.20.0',
} as const;

export const ORIGIN = 'https://lander.test';

/** A request to the worker inside workerd, as a visitor with `userAgent` would send it. */
export interface GetOptions {
  userAgent?: string;
  headers?: Record<string, string>;
  method?: string;
}

export function get(
  path: string,
  { userAgent = AGENTS.iPhone, headers = {}, method = 'GET' }: GetOptions = {},
): Promise<Response> {
  return exports.default.fetch(
    new Request(`${ORIGIN}${path}`, { method, headers: { 'user-agent': userAgent, ...headers }, redirect: 'manual' }),
  );
}
