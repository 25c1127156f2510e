/**
 * Runs the MDN HTTP Observatory scan of one target in a child Node process (scan.ts) that trusts
 * the given certificate, and reads its JSON answer. Used by `npm run observatory` and its test.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ObservatoryResult } from '@mdn/mdn-http-observatory';

const SCAN_SCRIPT = fileURLToPath(new URL('./scan.ts', import.meta.url));

/** Scans `target` (`127.0.0.1:PORT` or `127.0.0.1:PORT/path`); rejects with the scanner's error. */
export function runScan(target: string, caPath: string): Promise<ObservatoryResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SCAN_SCRIPT, target], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: caPath },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      err += chunk;
    });
    child.on('error', reject);
    child.on('close', () => {
      let parsed: unknown;
      try {
        parsed = JSON.parse(out);
      } catch {
        reject(new Error(`The scan of ${target} printed no JSON:\n${out}\n${err}`));
        return;
      }
      if (typeof parsed === 'object' && parsed !== null && 'scan' in parsed && 'tests' in parsed) {
        resolve(parsed as ObservatoryResult);
      } else {
        const message = typeof parsed === 'object' && parsed !== null && 'error' in parsed ? parsed.error : out;
        reject(new Error(`The scan of ${target} failed: ${String(message)}`));
      }
    });
  });
}
