/**
 * Detects the visitor once per request (PRODUCT.md §3) and puts the device and the language on
 * the context for every later handler.
 */
import type { MiddlewareHandler } from 'hono';
import { isbot } from 'isbot';
import { detectDevice, MAX_USER_AGENT } from '../../shared/device.ts';
import { pickLanguage } from '../../shared/texts.ts';
import type { AppEnv } from '../env.ts';

export function visitor(): MiddlewareHandler<AppEnv> {
  return async function visitorMiddleware(c, next) {
    const userAgent = (c.req.header('user-agent') ?? '').slice(0, MAX_USER_AGENT);
    const acceptLanguage = c.req.header('accept-language') ?? '';
    const device = detectDevice({ userAgent, referrer: c.req.header('referer') ?? '', acceptLanguage });
    device.bot = isbot(userAgent);
    c.set('device', device);
    c.set('language', pickLanguage(acceptLanguage));
    await next();
  };
}
