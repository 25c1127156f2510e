import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { ObservatoryResult, ObservatoryTest } from '@mdn/mdn-http-observatory';
import { describe, expect, it } from 'vitest';
import { makeCertificate, opensslArgs } from '../observatory/certificate.ts';
import { formatReport, isFailing, meetsGrade, plainText } from '../observatory/report.ts';

const passing: ObservatoryTest = { expectation: 'x', pass: true, result: 'x-ok', scoreModifier: 5 };

function result(grade: string, tests: Record<string, ObservatoryTest>): ObservatoryResult {
  const passed = Object.values(tests).filter((t) => t.pass).length;
  return {
    scan: {
      algorithmVersion: 4,
      grade,
      error: null,
      score: grade === 'A+' ? 130 : 70,
      statusCode: 200,
      testsFailed: Object.keys(tests).length - passed,
      testsPassed: passed,
      testsQuantity: Object.keys(tests).length,
      responseHeaders: {},
    },
    tests,
  };
}

describe('observatory report', () => {
  it('prints the grade, the score and every test with its score change', () => {
    const lines = formatReport('/', result('A+', { 'referrer-policy': passing }));
    expect(lines[0]).toBe('/: grade A+, score 130 (1 of 1 tests passed, HTTP 200)');
    expect(lines[1]).toMatch(/^ {2}pass {2}referrer-policy +x-ok +\+5$/);
    expect(lines.at(-1)).toBe('  No failing tests.');
  });

  it('names every failing test with the scanner’s reason as plain text', () => {
    const failing: ObservatoryTest = {
      expectation: 'csp-implemented-with-no-unsafe',
      pass: false,
      result: 'csp-not-implemented',
      scoreModifier: -25,
      scoreDescription: '<p>\n  Content Security Policy (CSP) header <code>not</code> implemented\n</p>',
    };
    const lines = formatReport('/landing', result('B', { 'content-security-policy': failing, cookies: passing }));
    expect(lines.filter((line) => line.includes('FAIL'))).toHaveLength(1);
    expect(lines).toContain('  content-security-policy failed: Content Security Policy (CSP) header not implemented');
    expect(lines).not.toContain('  No failing tests.');
  });

  it('counts a test that passes but costs points as failing', () => {
    expect(isFailing({ ...passing, scoreModifier: -5 })).toBe(true);
    expect(isFailing({ ...passing, pass: false, scoreModifier: 0 })).toBe(true);
    expect(isFailing(passing)).toBe(false);
  });

  it('requires A+ on every scanned page', () => {
    expect(meetsGrade([result('A+', {}), result('A+', {})])).toBe(true);
    expect(meetsGrade([result('A+', {}), result('A', {})])).toBe(false);
    expect(meetsGrade([])).toBe(false);
  });

  it('turns the scanner’s HTML descriptions into one line', () => {
    expect(plainText('<p>Set <code>default-src</code> to <code>&#39;none&#39;</code> &amp; more</p>')).toBe(
      "Set default-src to 'none' & more",
    );
  });
});

describe('throwaway certificate', () => {
  it('asks openssl for a one-day self-signed certificate naming the IP in its SAN', () => {
    const args = opensslArgs('127.0.0.1', 'k.pem', 'c.pem');
    expect(args).toEqual(expect.arrayContaining(['-x509', '-nodes', 'subjectAltName=IP:127.0.0.1', '/CN=127.0.0.1']));
    expect(args[args.indexOf('-days') + 1]).toBe('1');
  });

  it('makes a certificate for 127.0.0.1 in a temporary folder and removes it', () => {
    const certificate = makeCertificate('127.0.0.1');
    try {
      const x509 = new X509Certificate(readFileSync(certificate.certPath));
      expect(x509.subjectAltName).toBe('IP Address:127.0.0.1');
      expect(x509.checkIP('127.0.0.1')).toBe('127.0.0.1');
      expect(new Date(x509.validTo).getTime() - Date.now()).toBeLessThanOrEqual(86_400_000 + 60_000);
      expect(readFileSync(certificate.keyPath, 'utf8')).toContain('PRIVATE KEY');
    } finally {
      certificate.remove();
    }
    expect(() => readFileSync(certificate.keyPath)).toThrow();
  });
});
