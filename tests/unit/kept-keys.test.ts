import { describe, expect, it } from 'vitest';
import { keptKeys } from '../../worker/lib/kept-keys.ts';

const importHmac = () =>
  crypto.subtle.importKey('raw', new TextEncoder().encode('salt'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);

describe('imported keys kept for the isolate', () => {
  it('imports a key once, then answers the kept key itself', async () => {
    const keys = keptKeys();
    let imports = 0;
    const first = await keys.get('a', () => {
      imports += 1;
      return importHmac();
    });
    const again = await keys.get('a', () => {
      imports += 1;
      return importHmac();
    });
    expect(again).toBe(first);
    expect(imports).toBe(1);
  });

  it('never keeps an import under way or one that failed: a later caller imports its own', async () => {
    const keys = keptKeys();
    let imports = 0;
    const failing = keys.get('a', () => {
      imports += 1;
      return Promise.reject(new Error('refused'));
    });
    // A second caller while the first is under way does not join its promise.
    const second = keys.get('a', () => {
      imports += 1;
      return importHmac();
    });
    await expect(failing).rejects.toThrow('refused');
    expect(await second).toBeInstanceOf(CryptoKey);
    expect(imports).toBe(2);
  });

  it('holds at most its bound', async () => {
    const keys = keptKeys(2);
    let imports = 0;
    const get = (id: string) =>
      keys.get(id, () => {
        imports += 1;
        return importHmac();
      });
    await get('a');
    await get('b');
    await get('c');
    await get('a');
    expect(imports).toBe(4);
  });
});
