/**
 * The generic postback (docs/conversions.md#the-generic-postback): any other network's URL and, for
 * POST, its body, with `{macro}`s filled per event — percent-encoded in the URL, JSON-escaped in the
 * body. A template naming a macro that does not exist is refused when it is saved.
 */
import { AD_CLICK_PARAM_NAMES } from '../../../shared/ad-clicks.ts';
import type { ConversionEvent } from '../messages.ts';
import type { Platform, PlatformRequest } from './platform.ts';
import { eventValue } from './platform.ts';

/** Every macro and what it is filled with. */
export const POSTBACK_MACROS: Readonly<Record<string, (event: ConversionEvent, name: string) => string>> = {
  event: (_, name) => name,
  event_id: (event) => event.id,
  install: (event) => event.install,
  app: (event) => event.app,
  platform: (event) => event.platform ?? '',
  country: (event) => event.country,
  timestamp: (event) => String(Math.floor(event.at / 1000)),
  timestamp_ms: (event) => String(event.at),
  clicked_at_ms: (event) => (event.clickedAt === null ? '' : String(event.clickedAt)),
  // An app event's value in the major unit ("9.99", "-9.99" for a refund) and its ISO 4217 code.
  value: (event) => eventValue(event)?.text ?? '',
  currency: (event) => eventValue(event)?.currency ?? '',
  ...Object.fromEntries(
    AD_CLICK_PARAM_NAMES.map((param) => [param, (event: ConversionEvent) => event.ad?.[param] ?? '']),
  ),
};

const MACRO = /\{([A-Za-z_]+)\}/g;

/** The macros a template names that do not exist, in order of appearance. */
export function unknownMacros(template: string): string[] {
  return [...template.matchAll(MACRO)].map((match) => match[1] ?? '').filter((name) => !(name in POSTBACK_MACROS));
}

/** `template` with each macro filled by `escape` of its value. */
export function fillTemplate(
  template: string,
  event: ConversionEvent,
  name: string,
  encode: (value: string) => string,
): string {
  return template.replace(MACRO, (whole, macro: string) => {
    const fill = POSTBACK_MACROS[macro];
    return fill ? encode(fill(event, name)) : whole;
  });
}

/** A value inside a JSON string: escaped as JSON escapes it, without the quotes. */
const jsonEscape = (value: string): string => JSON.stringify(value).slice(1, -1);

export const postback: Platform<'postback'> = {
  // Every event, under Lander's own name unless the destination maps it.
  defaults: { install: 'install', open: 'open' },
  sendsOtherEvents: true,
  build({ event, name, settings }): PlatformRequest {
    const url = fillTemplate(settings.url, event, name, encodeURIComponent);
    const method = settings.method ?? (settings.body ? 'POST' : 'GET');
    if (method === 'GET') return { method, url, headers: {} };
    const body = fillTemplate(settings.body ?? '', event, name, jsonEscape);
    const json = /^\s*[[{]/.test(body);
    return { method, url, headers: { 'content-type': json ? 'application/json' : 'text/plain' }, body };
  },
};
