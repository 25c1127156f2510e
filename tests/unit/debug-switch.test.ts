import { describe, expect, it } from 'vitest';
import { wantsDebugConsole } from '../../client/browser/debug-switch.ts';

describe('the debug console switch', () => {
  it('is on with ?debug=1', () => {
    expect(wantsDebugConsole('?debug=1', undefined)).toBe(true);
    expect(wantsDebugConsole('?a=b&debug=1', false)).toBe(true);
  });

  it('is on when the config switches it on', () => {
    expect(wantsDebugConsole('', true)).toBe(true);
  });

  it('is off otherwise, including look-alike values', () => {
    for (const search of ['', '?debug=0', '?debug=true', '?debug', '?xdebug=1']) {
      expect(wantsDebugConsole(search, undefined), search).toBe(false);
    }
  });
});
