/**
 * `npm run audit:verify -- FILE.ndjson [--head HEAD.json] [--public-key KEY]` (docs/operators.md#audit-log):
 * checks an export of the audit log (`GET /api/audit/export`) offline — the chain from seq 1, and
 * that it reaches a daily signed head (`audit/heads/YYYY-MM-DD.json` in R2) whose Ed25519 signature
 * verifies with the operator's public key. Exit 0 when intact; 1 naming the first entry missing or
 * altered (or a head whose signature fails); 2 for a file it cannot read.
 */
import { existsSync, readFileSync } from 'node:fs';
import { isRedacted } from '../worker/audit/chain.ts';
import { BadFile, checkChain, headSigned, parseExport, parseHead } from './lib/audit-check.ts';
import { cliArgsWithFiles, helpIfAsked, refuse } from './lib/cli-args.ts';

const NAME = 'audit:verify';
const USAGE = 'usage: npm run audit:verify -- FILE.ndjson [--head HEAD.json] [--public-key KEY]';

function read(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    return refuse(NAME, `cannot read ${file}: ${(error as Error).message}`);
  }
}

/** The key's `x`: KEY itself (base64url), or the `x` of the JWK in the file KEY names. */
function publicKeyOf(key: string): string {
  if (!existsSync(key)) return key;
  const jwk = JSON.parse(read(key)) as { x?: unknown };
  return typeof jwk.x === 'string' ? jwk.x : refuse(NAME, `--public-key: ${key} is not an Ed25519 JWK`);
}

async function main(): Promise<void> {
  helpIfAsked(NAME, {
    summary: 'Checks an export of the audit log offline and names the first entry altered or removed.',
    usage: USAGE,
    flags: [
      ['FILE.ndjson', 'the export (GET /api/audit/export)'],
      ['--head HEAD.json', 'a daily signed head (audit/heads/YYYY-MM-DD.json in the exports bucket)'],
      ['--public-key KEY', "the signing key's public half: a JWK file, or its x (base64url)"],
    ],
    example: 'npm run audit:verify -- audit-2026-11-29.ndjson --head 2026-11-29.json --public-key audit-public.jwk',
  });
  const { values, positionals } = cliArgsWithFiles(NAME, USAGE, {
    head: { type: 'string' },
    'public-key': { type: 'string' },
  });
  const file = positionals[0];
  if (!file || positionals.length > 1) refuse(NAME, USAGE);
  if (values['public-key'] && !values.head) refuse(NAME, '--public-key checks a head: give --head HEAD.json too');
  try {
    const entries = parseExport(read(file));
    const head = values.head ? parseHead(read(values.head)) : undefined;
    if (head) {
      const key = values['public-key'] ? publicKeyOf(values['public-key']) : head.publicKey;
      if (!values['public-key'])
        console.warn(`Checked with the head's own key ${head.publicKey}: compare it with yours.`);
      if (!(await headSigned(head, key))) {
        console.error(`The signed head (seq ${head.seq}) does not verify with key ${key}: it is not the signed one.`);
        process.exit(1);
      }
    }
    const verdict = await checkChain(entries, head);
    if (!verdict.ok) {
      console.error(`Entry ${verdict.seq}: ${verdict.reason}.`);
      process.exit(1);
    }
    const signed = head ? `, up to the signed head (seq ${head.seq})` : ' (no signed head checked)';
    const redacted = entries.filter(isRedacted).length;
    const others = redacted ? `; ${redacted} of other apps redacted, their hashes taken as given` : '';
    console.log(
      `Intact: ${entries.length} entries, seq 1 to ${verdict.seq}${signed}; head hash ${verdict.hash}${others}.`,
    );
  } catch (error) {
    if (error instanceof BadFile) refuse(NAME, error.message);
    throw error;
  }
}

if (import.meta.main) await main();
