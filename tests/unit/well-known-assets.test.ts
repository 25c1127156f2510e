import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('static assets and the /.well-known routes', () => {
  it('no file in public/ or the client build lives under /.well-known (assets are served before the worker)', () => {
    expect(existsSync('public/.well-known')).toBe(false);
    expect(existsSync('dist/client/.well-known')).toBe(false);
  });
});
