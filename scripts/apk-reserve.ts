/**
 * `npm run apk:reserve -- IN.apk OUT.apk` writes OUT.apk: IN.apk (signed with v2 or v3) with a blank
 * reserved value in its APK Signing Block, ready to be stamped per download (docs/apk-stamping.md).
 * Prints where the value is. An input that cannot be reserved gets its reason on stderr and exit 2;
 * OUT.apk is written whole or not at all.
 */
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { readApkFile } from './lib/apk/apk-file.ts';
import { locateReserved, reserveApk } from './lib/apk/reserve.ts';
import { cliArgsWithFiles, helpIfAsked } from './lib/cli-args.ts';

const USAGE = 'usage: npm run apk:reserve -- IN.apk OUT.apk';

function fail(message: string): never {
  console.error(`npm run apk:reserve: ${message}`);
  process.exit(2);
}

helpIfAsked('apk:reserve', {
  summary:
    'Writes OUT.apk: IN.apk (signed with v2 or v3) with a blank reserved value, ready to be stamped per download.',
  usage: USAGE,
  flags: [
    ['IN.apk', 'your signed release APK'],
    ['OUT.apk', 'where the reserved parent is written (whole or not at all)'],
  ],
  example: 'npm run apk:reserve -- app-release.apk app-reserved.apk',
});
const { positionals } = cliArgsWithFiles('apk:reserve', USAGE, {});
const [input, output, ...extra] = positionals;
if (input === undefined || output === undefined || extra.length > 0) fail(USAGE);

const { checked: reserved } = readApkFile(input, reserveApk, fail);

// Written beside OUT and renamed over it, so a failed write never leaves a partial OUT.
const partial = `${output}.${process.pid}.partial`;
try {
  writeFileSync(partial, reserved);
  renameSync(partial, output);
} catch (error) {
  rmSync(partial, { force: true });
  fail(`cannot write ${output}: ${error instanceof Error ? error.message : String(error)}`);
}
const range = locateReserved(reserved);
console.log(`${output}: ${reserved.length} bytes, reserved value at offset ${range.offset} (${range.length} bytes)`);
