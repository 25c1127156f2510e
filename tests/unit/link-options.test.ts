/**
 * `npm run link -- --short`'s variants, preview and QR code style (scripts/lib/link-options.ts,
 * scripts/link.ts): read and checked before anything is sent, variants given to the link with
 * `PUT /api/links/<slug>/variants` once it is made, the styled code's URLs printed.
 */
import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { previewArgument, qrStyleArgument, variantsArgument } from '../../scripts/lib/link-options.ts';
import { TOOL_ENV } from '../../scripts/lib/run.ts';

describe('--variant', () => {
  it('reads each variant’s fields, commas in a headline kept, weight 1 when left out', () => {
    const read = variantsArgument(
      ['name=a', 'name=b,weight=50,headline=Hi, there,text=Notes, fast,button=Go'],
      'signup',
    );
    expect(read).toEqual({
      ok: true,
      value: {
        event: 'signup',
        variants: [
          { name: 'a', weight: 1 },
          { name: 'b', weight: 50, headline: 'Hi, there', text: 'Notes, fast', button: 'Go' },
        ],
      },
    });
  });

  it('reads a variant’s preview for link previewers, commas in its title kept', () => {
    const read = variantsArgument(
      ['name=a', 'name=b,preview.title=Free, this week,preview.image=https://cdn.example/b.png,button=Go'],
      undefined,
    );
    expect(read).toEqual({
      ok: true,
      value: {
        event: null,
        variants: [
          { name: 'a', weight: 1 },
          {
            name: 'b',
            weight: 1,
            button: 'Go',
            preview: { title: 'Free, this week', image: 'https://cdn.example/b.png' },
          },
        ],
      },
    });
  });

  it.each([
    [
      ['name=a', 'name=b,preview.image=http://x.example/i.png'],
      undefined,
      '--variant 2: preview.image is not an https URL',
    ],
    [['name=a', `name=b,preview.title=${'t'.repeat(121)}`], undefined, '--variant 2: preview.title is longer than 120'],
    [['name=a', 'preview.colour=red'], undefined, '--variant 2: expected name=…'],
    [['name=a'], undefined, '--variant: variants are at least 2'],
    [['name=a', 'name=a'], undefined, '--variant: variants have a name twice'],
    [['name=a', 'nam=b'], undefined, '--variant 2: expected name=…'],
    [['name=a', 'weight=3'], undefined, '--variant 2: name=… is missing'],
    [['name=a', 'name=b,weight=x'], undefined, '--variant 2: weight is a number'],
    [['name=a', 'name=b,weight=10001'], undefined, '--variant 2: weight is above 10000'],
    [['name=a', 'name=b c'], undefined, '--variant 2: name is 1 to 32'],
    [['name=a', 'name=b,image=http://x.example/i.png'], undefined, '--variant 2: image is not an https URL'],
    [['name=a', `name=b,button=${'w'.repeat(41)}`], undefined, '--variant 2: button is longer than 40'],
    [Array.from({ length: 9 }, (_, i) => `name=v${i}`), undefined, '--variant: variants are at most 8'],
    [['name=a', 'name=b'], 'Sign Up', '--variant-event: names are a-z'],
  ])('refuses %j (event %j) naming the option', (texts, event, reason) => {
    const read = variantsArgument(texts, event);
    expect(read.ok ? '' : read.reason).toContain(reason);
  });
});

describe('--preview-* and --qr-*', () => {
  it('reads a preview, or none, and names the field it refuses', () => {
    expect(previewArgument({})).toEqual({ ok: true, value: undefined });
    expect(previewArgument({ title: 'T', image: 'card' })).toEqual({ ok: true, value: { title: 'T', image: 'card' } });
    expect(previewArgument({ image: 'http://x.example/a.png' })).toEqual({
      ok: false,
      reason: '--preview-image: image is an https URL or "card"',
    });
    expect(previewArgument({ title: ' ' })).toEqual({ ok: false, reason: '--preview-title: title is blank' });
  });

  it('reads a style the worker draws, and refuses one a scanner cannot read', () => {
    expect(qrStyleArgument({})).toEqual({ ok: true, value: undefined });
    expect(qrStyleArgument({ fg: '1A2B3C', margin: '6', logo: true })).toEqual({
      ok: true,
      value: { fg: '#1a2b3c', bg: '#ffffff', margin: 6, logo: true, scale: 12 },
    });
    expect(qrStyleArgument({ fg: 'ffffff', bg: '000000' })).toMatchObject({
      reason: expect.stringMatching(/^--qr-fg: must be darker/),
    });
    expect(qrStyleArgument({ margin: '40' })).toMatchObject({
      reason: '--qr-margin: must be a whole number from 2 to 16',
    });
    expect(qrStyleArgument({ fg: 'red' })).toMatchObject({ reason: '--qr-fg: must be a colour #rrggbb' });
  });
});

interface Asked {
  method: string;
  url: string;
  body: unknown;
}

/** Runs `npm run link -- --short` with `extra` against a stand-in worker: what it asked, printed and exited with. */
async function link(extra: string[], variantsStatus = 200) {
  const asked: Asked[] = [];
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk) => {
      text += chunk;
    });
    req.on('end', () => {
      asked.push({ method: req.method ?? '', url: req.url ?? '', body: JSON.parse(text) });
      const made = { slug: 'spring', shortUrl: 'http://x/s/spring', url: 'http://x/landing?d=T' };
      const answer =
        req.method === 'POST'
          ? { status: 201, body: { ...made, qr: 'http://x/s/spring.svg', qrPng: 'http://x/s/spring.png' } }
          : variantsStatus === 200
            ? { status: 200, body: JSON.parse(text) }
            : { status: variantsStatus, body: { error: 'variants: refused' } };
      res.writeHead(answer.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const args = ['scripts/link.ts', '--short', '--channel', 'c', '--slug', 'spring', '--base', base, ...extra];
  const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
    execFile(process.execPath, args, { env: TOOL_ENV }, (error, stdout, stderr) =>
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    ),
  );
  server.close();
  return { ...result, asked };
}

describe('npm run link -- --short with variants, a preview and a QR style', () => {
  it('makes the link with its preview, gives it its variants, and prints the styled code’s URLs', async () => {
    const result = await link([
      ...['--preview-title', 'Notes', '--preview-description', 'Write it down'],
      ...['--variant', 'name=a,weight=50', '--variant', 'name=b,weight=50,headline=Free today,button=Get it'],
      ...['--variant-event', 'signup', '--qr-fg', '1a2b3c', '--qr-bg', 'fffff0', '--qr-logo', '--qr-scale', '8'],
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.asked).toEqual([
      {
        method: 'POST',
        url: '/api/links',
        body: { channel: 'c', data: {}, slug: 'spring', preview: { title: 'Notes', description: 'Write it down' } },
      },
      {
        method: 'PUT',
        url: '/api/links/spring/variants',
        body: {
          event: 'signup',
          variants: [
            { name: 'a', weight: 50 },
            { name: 'b', weight: 50, headline: 'Free today', button: 'Get it' },
          ],
        },
      },
    ]);
    expect(result.stdout.split('\n')).toEqual([
      'http://x/s/spring',
      'http://x/landing?d=T',
      'http://x/s/spring.svg?fg=1a2b3c&bg=fffff0&logo=1',
      'http://x/s/spring.png?fg=1a2b3c&bg=fffff0&logo=1&scale=8',
      '',
    ]);
  });

  it.each([
    [['--variant', 'name=a', '--variant', 'name=b,weight=-1'], '--variant 2: weight'],
    [['--qr-bg', '333333'], '--qr-fg: contrast with bg is 1.66:1'],
    [['--preview-image', 'ftp://x.example/a.png'], '--preview-image'],
    [['--variant-event', 'signup'], '--variant-event needs --variant'],
  ])('refuses %j with the reason before anything is sent, exit 2', async (extra, reason) => {
    const result = await link(extra);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(reason);
    expect(result.asked).toEqual([]);
  });

  it('says the link was made when the worker refuses its variants, exit 2', async () => {
    const result = await link(['--variant', 'name=a', '--variant', 'name=b'], 400);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('http://x/s/spring was made, its variants were not: 400: variants: refused');
    expect(result.asked.map(({ method }) => method)).toEqual(['POST', 'PUT']);
  });

  it('lists the options in --help', async () => {
    const help = await new Promise<string>((resolve) =>
      execFile(process.execPath, ['scripts/link.ts', '--help'], { env: TOOL_ENV }, (_, stdout) => resolve(stdout)),
    );
    for (const flag of [
      '--variant ',
      '--variant-event',
      '--preview-title',
      '--preview-description',
      '--preview-image',
      '--qr-fg',
      '--qr-bg',
      '--qr-logo',
      '--qr-margin',
      '--qr-scale',
    ]) {
      expect(help).toContain(flag);
    }
  });
});
