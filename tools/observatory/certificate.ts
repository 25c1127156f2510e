/**
 * A throwaway TLS certificate for `npm run observatory`: a self-signed P-256 certificate for the
 * loopback address, made with openssl at run time into a temporary folder (never committed) and
 * valid for one day. The scanner trusts it through NODE_EXTRA_CA_CERTS, so the scan sees a
 * verified certificate, as on the edge.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Certificate {
  /** PEM private key. */
  keyPath: string;
  /** PEM certificate, also the one CA the scanner needs. */
  certPath: string;
  /** Removes the folder with the key. */
  remove(): void;
}

/** openssl's arguments for a self-signed certificate whose subject and SAN are `host` (an IP). */
export function opensslArgs(host: string, keyPath: string, certPath: string): string[] {
  return [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    `/CN=${host}`,
    '-addext',
    `subjectAltName=IP:${host}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-keyout',
    keyPath,
    '-out',
    certPath,
  ];
}

/** Makes a key and a certificate for `host` in a fresh temporary folder. */
export function makeCertificate(host = '127.0.0.1'): Certificate {
  const dir = mkdtempSync(join(tmpdir(), 'lander-tls-'));
  const keyPath = join(dir, 'key.pem');
  const certPath = join(dir, 'cert.pem');
  const result = spawnSync('openssl', opensslArgs(host, keyPath, certPath), { encoding: 'utf8' });
  if (result.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`openssl could not make a certificate: ${result.error?.message ?? result.stderr}`);
  }
  return { keyPath, certPath, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
