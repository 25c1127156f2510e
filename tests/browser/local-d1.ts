/**
 * SQL on the started worker's local D1, as an operator's `wrangler d1 execute --local` would run it.
 * The running worker may hold the database a moment (SQLITE_BUSY), so a busy attempt is made again.
 */
import { spawnSync } from 'node:child_process';
import { TOOL_ENV } from '../../scripts/lib/run.ts';

export function localSql(persistTo: string, command: string): void {
  for (let attempt = 1; ; attempt++) {
    const result = spawnSync(
      'npx',
      ['wrangler', 'd1', 'execute', 'FUNNEL_DB', '--local', '--persist-to', persistTo, '--command', command],
      { encoding: 'utf8', env: TOOL_ENV },
    );
    if (result.status === 0) return;
    if (attempt >= 5 || !/SQLITE_BUSY/.test(result.stderr)) throw new Error(result.stderr);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500 * attempt);
  }
}
