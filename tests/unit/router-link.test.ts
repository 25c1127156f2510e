import { describe, expect, it } from 'vitest';
import { isPlainClick } from '../../client/app/shell/router-link.tsx';

const plain = { button: 0, metaKey: false, altKey: false, ctrlKey: false, shiftKey: false, defaultPrevented: false };

describe('a router link', () => {
  it('takes a plain click of the main button into the page', () => {
    expect(isPlainClick(plain)).toBe(true);
  });

  it('leaves every other click to the browser: a new tab or window, another button, a handled click', () => {
    for (const key of ['metaKey', 'altKey', 'ctrlKey', 'shiftKey', 'defaultPrevented'] as const) {
      expect(isPlainClick({ ...plain, [key]: true }), key).toBe(false);
    }
    expect(isPlainClick({ ...plain, button: 1 })).toBe(false);
  });
});
