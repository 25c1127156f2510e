/** Client hints as the worker receives them (docs/device.md): parsed, cleaned, never trusted blindly. */
import { describe, expect, it } from 'vitest';
import { cleanClientHints, clientHintsFromHeaders } from '../../shared/device.ts';

const headers =
  (values: Record<string, string>) =>
  (name: string): string | undefined =>
    values[name.toLowerCase()];

describe('client hints', () => {
  it('reads sf-strings and sf-booleans from the Sec-CH-UA-* headers', () => {
    const hints = clientHintsFromHeaders(
      headers({
        'sec-ch-ua-mobile': '?1',
        'sec-ch-ua-platform': '"Android"',
        'sec-ch-ua-model': '"Pixel \\"8\\""',
        'sec-ch-ua-platform-version': '"14.0.0"',
      }),
    );
    expect(hints).toEqual({ mobile: true, platform: 'Android', model: 'Pixel "8"', platformVersion: '14.0.0' });
  });

  it('reads ?0 as not mobile and leaves out what is absent', () => {
    expect(clientHintsFromHeaders(headers({ 'sec-ch-ua-mobile': '?0' }))).toEqual({ mobile: false });
    expect(clientHintsFromHeaders(headers({}))).toEqual({});
  });

  it('drops an empty model (Chrome on desktops sends "")', () => {
    expect(clientHintsFromHeaders(headers({ 'sec-ch-ua-model': '""' }))).toEqual({});
  });

  it('drops values that are too long, not printable or not a version', () => {
    expect(
      cleanClientHints({
        mobile: 'yes',
        platform: 'x'.repeat(10_000),
        model: 'Pixel\u0000<script>',
        platformVersion: '14.0.0; drop table',
      }),
    ).toEqual({});
  });

  it('accepts the browser’s userAgentData values', () => {
    expect(cleanClientHints({ mobile: false, platform: 'macOS', platformVersion: '14.5.0', model: '' })).toEqual({
      mobile: false,
      platform: 'macOS',
      platformVersion: '14.5.0',
    });
  });
});
