/**
 * `npm run deploy [-- --env production]`: builds the client, deploys the worker with wrangler.
 */
import { parseArgs } from 'node:util';
import { runTool } from './lib/run.ts';

const { values } = parseArgs({ options: { env: { type: 'string', default: '' } } });

runTool('vite', ['build']);
runTool('wrangler', ['deploy', '--env', values.env ?? '']);
