/**
 * `npm run apk:upload -- OUT.apk [--app PACKAGE] [--version NAME] [--name FILE.apk] [--app-id ID] [--env production | --local [--persist-to DIR]]`
 * stores a reserved parent (`npm run apk:reserve`) in R2 for stamped downloads (docs/apk-stamping.md):
 * the object under its file name, with its size, SHA-256, version and reserved range in its custom
 * metadata, then the app's entry in the KV record the page reads. The package and version are the
 * manifest's; a flag that contradicts them, or anything that is not a blank reserved parent, is
 * refused (exit 2) before anything is written.
 */
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { APK_FILE_NAME, type ApkParentFacts } from '../shared/apk-parent.ts';
import { APP_ID_PATTERN, appKvKey, DEFAULT_APP } from '../shared/apps.ts';
import { PARENTS_KEY, parentMetadata, parseParents } from '../worker/apk/parents.ts';
import { readApkFile } from './lib/apk/apk-file.ts';
import { readManifest } from './lib/apk/manifest.ts';
import { parentIdentity } from './lib/apk/parent-identity.ts';
import { locateBlankReserved } from './lib/apk/reserve.ts';
import { readApk } from './lib/apk/signing-block.ts';
import { UPLOAD, withBindings } from './lib/bindings.ts';
import { type CliHelp, cliArgsWithFiles, helpIfAsked } from './lib/cli-args.ts';

const USAGE =
  'usage: npm run apk:upload -- OUT.apk [--app PACKAGE] [--version NAME] [--name FILE.apk] [--env production | --local [--persist-to DIR]]';
const HELP: CliHelp = {
  summary: 'Stores a reserved parent (npm run apk:reserve) in R2 for stamped downloads, and its entry in KV.',
  usage: USAGE,
  flags: [
    ['OUT.apk', 'the reserved parent'],
    ['--app PACKAGE, --version NAME', "must agree with the APK's manifest (needed only where it has none)"],
    ['--name FILE.apk', "the file name visitors download (default the file's own)"],
    ['--app-id ID', "the Lander app whose pages offer it (docs/routes.md#apps; --app is the APK's package)"],
    ['--env development|production', "Cloudflare's R2 and KV of that environment (wrangler must be logged in)"],
    ['--local [--persist-to DIR]', 'the local store npm start reads'],
  ],
  example: 'npm run apk:upload -- app-reserved.apk --local',
};

const PACKAGE = /^[a-zA-Z][\w]*(\.[a-zA-Z][\w]*)+$/;

function fail(message: string): never {
  console.error(`npm run apk:upload: ${message}`);
  process.exit(2);
}

async function main(): Promise<void> {
  helpIfAsked('apk:upload', HELP);
  const { values, positionals } = cliArgsWithFiles('apk:upload', USAGE, {
    app: { type: 'string' },
    'app-id': { type: 'string', default: DEFAULT_APP },
    version: { type: 'string' },
    name: { type: 'string' },
    env: { type: 'string', default: '' },
    local: { type: 'boolean', default: false },
    'persist-to': { type: 'string' },
  });
  const [input, ...extra] = positionals;
  if (input === undefined || extra.length > 0) fail(USAGE);
  if (values.app !== undefined && !PACKAGE.test(values.app)) {
    fail(`--app ${JSON.stringify(values.app)} is not a package name`);
  }
  if (!APP_ID_PATTERN.test(values['app-id'])) fail(`--app-id ${JSON.stringify(values['app-id'])} is no app id`);
  // Each app's pages read their own record (docs/apk-stamping.md): the default app's keeps its key.
  const recordKey = appKvKey(values['app-id'], PARENTS_KEY);
  const file = values.name ?? basename(input);
  if (!APK_FILE_NAME.test(file)) {
    fail(`the file name ${JSON.stringify(file)} must be letters, digits, . _ - ending in .apk (or give --name)`);
  }
  const { bytes, checked } = readApkFile(
    input,
    (apk) => ({ range: locateBlankReserved(apk), manifest: readManifest(apk, readApk(apk)) }),
    fail,
  );
  const { range } = checked;
  const identity = parentIdentity(checked.manifest, values);
  if ('refused' in identity)
    fail(identity.needsFlag ? `${input}: ${identity.refused}\n${USAGE}` : `${input}: ${identity.refused}`);
  const { app, version } = identity;
  if (!PACKAGE.test(app)) fail(`${input}: the package ${JSON.stringify(app)} is not a package name`);
  if (version === '') fail(`${input}: the version is empty: give it with --version\n${USAGE}`);
  if (version.length > 64) fail(`${input}: the version ${JSON.stringify(version)} is longer than 64 characters`);
  const facts: ApkParentFacts = {
    file,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    version,
  };
  const target = { local: values.local, env: values.env || undefined, persistTo: values['persist-to'] };
  await withBindings(target, UPLOAD, async ({ APK_PARENTS, KV }) => {
    await APK_PARENTS.put(file, bytes, {
      httpMetadata: { contentType: 'application/vnd.android.package-archive' },
      customMetadata: parentMetadata({ app, ...facts, range }),
    });
    // The page's record, written after the object so the page never links to a file not yet there.
    const current = await KV.get(recordKey, 'text');
    const parents = { ...(current ? parseParents(current) : null), [app]: facts };
    await KV.put(recordKey, JSON.stringify(parents));
  });
  const where = target.local ? 'the local R2' : `R2 (${target.env ?? 'development'})`;
  console.log(
    `Uploaded ${file} for ${app} to ${where}: ${facts.size} bytes, version ${facts.version}, sha256 ${facts.sha256}, reserved value at ${range.offset}`,
  );
}

if (import.meta.main) await main();
