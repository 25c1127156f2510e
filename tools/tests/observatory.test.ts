/**
 * Security headers graded by the MDN HTTP Observatory's own scanner inside `npm test`: it grades
 * the started worker's headers A+. The worker runs on plain HTTP here, so a loopback HTTPS proxy with
 * a throwaway certificate passes its responses through unchanged (`npm run observatory` does the
 * same against `wrangler dev --local-protocol https`).
 */

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Certificate, makeCertificate } from '../observatory/certificate.ts';
import { formatReport, REQUIRED_GRADE } from '../observatory/report.ts';
import { runScan } from '../observatory/run-scan.ts';

const baseURL = inject('baseURL');
let certificate: Certificate;
let proxy: Server;
let target: string;

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-encoding', 'content-length']);

beforeAll(async () => {
  certificate = makeCertificate('127.0.0.1');
  proxy = createServer(
    { key: readFileSync(certificate.keyPath), cert: readFileSync(certificate.certPath) },
    (req, res) => {
      const headers: Record<string, string> = { 'accept-encoding': 'identity' };
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && name !== 'host' && !HOP_BY_HOP.has(name)) headers[name] = value;
      }
      fetch(`${baseURL}${req.url ?? '/'}`, { method: req.method, headers, redirect: 'manual' })
        .then(async (upstream) => {
          const out: Record<string, string | string[]> = {};
          upstream.headers.forEach((value, name) => {
            if (!HOP_BY_HOP.has(name) && name !== 'set-cookie') out[name] = value;
          });
          const cookies = upstream.headers.getSetCookie();
          if (cookies.length > 0) out['set-cookie'] = cookies;
          const body = Buffer.from(await upstream.arrayBuffer());
          res.writeHead(upstream.status, out);
          res.end(body);
        })
        .catch(() => {
          res.writeHead(502);
          res.end();
        });
    },
  );
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  target = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  certificate.remove();
});

describe('MDN HTTP Observatory', () => {
  it.each(['/', '/landing'])(`grades %s ${REQUIRED_GRADE} with no failing test`, async (path) => {
    const result = await runScan(`${target}${path === '/' ? '' : path}`, certificate.certPath);
    const report = formatReport(path, result).join('\n');
    expect(result.scan.grade, report).toBe(REQUIRED_GRADE);
    expect(result.scan.testsFailed, report).toBe(0);
    // The certificate was trusted: HSTS is only scored over a verified connection.
    expect(result.tests['strict-transport-security']?.pass, report).toBe(true);
    expect(result.tests['content-security-policy']?.result).toBe('csp-implemented-with-no-unsafe-default-src-none');
  });
});
