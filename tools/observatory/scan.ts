/**
 * Child process of `npm run observatory`: runs the MDN HTTP Observatory's own `scan()` on one
 * `host:port` and prints its result as JSON on stdout. A separate process because Node reads
 * NODE_EXTRA_CA_CERTS (the throwaway certificate) only at start-up.
 *
 * The scanner's HSTS preload list (conf/hsts-preload.json) is downloaded by the package's postinstall
 * script, which cannot run offline and is denied in package.json's `allowScripts`. A loopback address
 * is on no preload list, so when the file is missing the scan reads an empty list — the same answer
 * the real list gives for 127.0.0.1.
 */
import fs from 'node:fs';
import { scan } from '@mdn/mdn-http-observatory';

const PRELOAD_LIST = /[\\/]@mdn[\\/]mdn-http-observatory[\\/]conf[\\/]hsts-preload\.json$/;

const readFileSync = fs.readFileSync;
const emptyPreloadList = ((path: fs.PathOrFileDescriptor, options?: unknown) => {
  if (typeof path === 'string' && PRELOAD_LIST.test(path) && !fs.existsSync(path)) return '{}';
  return (readFileSync as (p: fs.PathOrFileDescriptor, o?: unknown) => string | Buffer)(path, options);
}) as typeof fs.readFileSync;
fs.readFileSync = emptyPreloadList;

const target = process.argv[2];
if (!target) {
  console.error('usage: node tools/observatory/scan.ts HOST:PORT');
  process.exit(2);
}
try {
  const result = await scan(target);
  process.stdout.write(JSON.stringify(result));
} catch (error) {
  process.stdout.write(JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
  process.exitCode = 1;
}
