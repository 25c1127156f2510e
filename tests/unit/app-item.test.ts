import { describe, expect, it } from 'vitest';
import type { AppItem } from '../../shared/config/schema.ts';
import { appItemFor } from '../../worker/config/app-item.ts';

const item = (plat: 1 | 2 | 3, name: string) => ({ plat, name }) as unknown as AppItem;

describe('the app item for a platform', () => {
  it("is the platform's own item, else the one for both", () => {
    const appData = [item(3, 'both'), item(1, 'android')];
    expect(appItemFor(appData, 1)?.name).toBe('android');
    expect(appItemFor(appData, 2)?.name).toBe('both');
  });
});
