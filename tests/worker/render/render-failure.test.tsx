import '../mock-support.ts';
import { describe, expect, it, vi } from 'vitest';
import { UA } from '../../fixtures/agents.ts';
import { get } from '../helpers.ts';

vi.mock('../../../client/app/landing/landing-page.tsx', () => ({
  Component() {
    throw new Error('screen exploded');
  },
}));

describe('a screen that throws while rendering', () => {
  it('yields the 500 page with status 500, decided before the first byte', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await get('/landing');
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toContain('Internal Server Error');
    expect(html).toContain('>500<');
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(html).not.toContain('screen exploded');
  });

  it('titles the 500 page in Chinese for a zh-CN visitor', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await get('/landing', { headers: { 'accept-language': 'zh-CN' } });
    expect(res.status).toBe(500);
    const html = await res.text();
    expect(html).toContain('<h1>服务器内部错误</h1>');
    expect(html).not.toContain('Internal Server Error');
  });

  it('still gives a bot the metadata page with 200', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const res = await get('/landing', { userAgent: UA.googlebot });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).not.toContain('Internal Server Error');
  });
});
