/** Reading the figures: wrk's output, the page's module scripts, the machine. */
import { describe, expect, it } from 'vitest';
import { chunkLabel, packageOf } from '../bench/composition.ts';
import { parseWrk, wrkMs } from '../bench/load.ts';
import { cpuModel, parseCpuSeconds } from '../bench/machine.ts';
import { moduleScripts, withStaticImports } from '../bench/sizes.ts';

const WRK = `Running 10s test @ http://127.0.0.1:40001/
  1 threads and 32 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    44.09ms   30.10ms 161.08ms   80.00%
    Req/Sec   660.12    100.00     0.90k    70.00%
  Latency Distribution
     50%  812.00us
     75%   50.00ms
     90%   90.00ms
     99%    1.61s
  6590 requests in 10.00s, 20.00MB read
  Socket errors: connect 0, read 2, write 0, timeout 3
  Non-2xx or 3xx responses: 7
Requests/sec:    659.03
Transfer/sec:      2.00MB
`;

describe('wrk output', () => {
  it('reads requests/s, p50 and p99 in milliseconds whatever the unit, and the errors', () => {
    expect(parseWrk(WRK)).toEqual({
      tool: 'wrk',
      requestsPerSecond: 659.03,
      requests: 6590,
      p50: 0.812,
      p99: 1610,
      non2xx3xx: 7,
      socketErrors: 5,
    });
  });

  it('counts zero errors when wrk prints no error lines', () => {
    const clean = WRK.replace(/ {2}Socket errors.*\n {2}Non-2xx.*\n/, '');
    expect(parseWrk(clean)).toMatchObject({ non2xx3xx: 0, socketErrors: 0 });
  });

  it('fails loudly when wrk printed no figures', () => {
    expect(() => parseWrk('unable to connect to 127.0.0.1:1 Connection refused')).toThrow(/no Requests\/sec/);
  });

  it('converts every wrk time unit', () => {
    expect([wrkMs('5.00us'), wrkMs('2.5ms'), wrkMs('1.00s'), wrkMs('1.50m'), wrkMs('x')]).toEqual([
      0.005,
      2.5,
      1000,
      90_000,
      Number.NaN,
    ]);
  });
});

describe('initial JavaScript', () => {
  const html = `<head><link rel="stylesheet" href="/assets/a.css"/>
<link rel="modulepreload" fetchPriority="low" nonce="n" href="/assets/entry-1.js"/>
<link rel="modulepreload" href="/assets/screens-2.js"/><link rel="preload" as="image" href="/logo.png"/>
<script type="application/json" id="lander-data">{}</script>
<script nonce="n" type="module" src="/assets/entry-1.js" async=""></script></head>`;

  it('finds module scripts and modulepreloads whatever the attribute order, once each', () => {
    expect(moduleScripts(html)).toEqual(['/assets/entry-1.js', '/assets/screens-2.js']);
  });

  it('adds the chunks those scripts import statically, transitively', () => {
    const manifest = {
      'entry.tsx': { file: 'assets/entry-1.js', imports: ['_vendor.js'] },
      '_vendor.js': { file: 'assets/vendor-3.js', imports: ['_react.js'] },
      '_react.js': { file: 'assets/react-4.js' },
      'landing.tsx': { file: 'assets/landing-5.js', imports: ['entry.tsx'] },
    };
    expect(withStaticImports(['/assets/entry-1.js'], manifest)).toEqual([
      '/assets/entry-1.js',
      '/assets/vendor-3.js',
      '/assets/react-4.js',
    ]);
  });
});

describe('machine', () => {
  it('reads the CPU model from /proc/cpuinfo text', () => {
    expect(cpuModel('processor\t: 0\nmodel name\t: AMD EPYC 7B13\nflags\t: x\n')).toBe('AMD EPYC 7B13');
    expect(cpuModel('')).toBe('unknown');
  });
});

describe('initial JavaScript by package', () => {
  it('names a module by its npm package, scoped or not, and the app’s own code by none', () => {
    expect(packageOf('/w/node_modules/react-dom/cjs/react-dom-client.production.js')).toBe('react-dom');
    expect(packageOf('/w/node_modules/@scope/pkg/index.js')).toBe('@scope/pkg');
    expect(packageOf('/w/client/app/app.tsx')).toBeUndefined();
  });

  it('labels chunks by package even when the hash contains a dash', () => {
    expect(chunkLabel('/assets/pkg_react-dom-BM-PXA0c.js')).toBe('react-dom');
    expect(chunkLabel('/assets/pkg_@scope__pkg-abcdefgh.js')).toBe('@scope/pkg');
    expect(chunkLabel('/assets/rolldown-runtime-WkwZ5CU-.js')).toBe('bundler runtime');
    expect(chunkLabel('/assets/entry-BKpvn0p2.js')).toBe('app (entry + index screen)');
  });
});

describe('server CPU time', () => {
  it('reads user + system ticks from /proc/PID/stat, even with spaces and parentheses in the name', () => {
    const stat = '4242 (work (er) d) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 4 0 1000 1 1';
    expect(parseCpuSeconds(stat, 100)).toBe(3);
  });
});
