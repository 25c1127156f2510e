/**
 * `npm run link -- --channel X --inviter Y [--param key=value …] [--plain key=value …] [--base URL]
 * [--env production]` prints a campaign link: `/landing?d=<token>` plus any plain parameters. The token
 * carries `channel`, `inviter` and every `--param`, encrypted with the decode key
 * (docs/campaign-links.md): `DECODE_KEY` from the environment, else — in development only — the
 * built-in default. A link the worker would refuse is not printed: the reason goes to stderr, exit 2.
 */
import { parseArgs } from 'node:util';
import { decodeKey } from '../worker/campaign/decode-key.ts';
import { mintLink } from './lib/mint-link.ts';

const { values } = parseArgs({
  options: {
    channel: { type: 'string' },
    inviter: { type: 'string' },
    param: { type: 'string', multiple: true, default: [] },
    plain: { type: 'string', multiple: true, default: [] },
    base: { type: 'string' },
    env: { type: 'string', default: '' },
  },
});

function fail(message: string): never {
  console.error(`npm run link: ${message}`);
  process.exit(2);
}

function pairs(list: string[]): [string, string][] {
  return list.map((item) => {
    const at = item.indexOf('=');
    if (at < 1) fail(`expected key=value, got ${JSON.stringify(item)}`);
    return [item.slice(0, at), item.slice(at + 1)];
  });
}

if (values.env !== '' && values.env !== 'development' && values.env !== 'production') {
  fail(`unknown environment ${JSON.stringify(values.env)}: development or production`);
}
const production = values.env === 'production';
const key = decodeKey({ LANDER_ENV: production ? 'production' : 'development', DECODE_KEY: process.env.DECODE_KEY });
if (!key) fail('set DECODE_KEY to the production decode key');

const payload: Record<string, string> = Object.fromEntries(pairs(values.param));
if (values.channel !== undefined) payload.channel = values.channel;
if (values.inviter !== undefined) payload.inviter = values.inviter;

const base = values.base ?? (production ? fail('--base is required with --env production') : 'http://localhost:8787');
const result = mintLink({ payload, plain: pairs(values.plain), base, key });
if (!result.ok) fail(result.reason);
console.log(result.url);
