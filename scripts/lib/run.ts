/** Runs the project's own tools from node_modules/.bin with a quiet, offline-friendly environment. */
import { type ChildProcess, type SpawnOptions, spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const TOOL_ENV: NodeJS.ProcessEnv = {
  ...process.env,
  // The tools' shebangs say `node`: put the project's Node 22 first (wrangler needs Node ≥ 22).
  PATH: `${ROOT}node_modules/.bin:${process.env.PATH ?? ''}`,
  WRANGLER_SEND_METRICS: 'false',
  WRANGLER_SEND_ERROR_REPORTS: 'false',
  WRANGLER_HIDE_BANNER: 'true',
};

const bin = (tool: string): string => `${ROOT}node_modules/.bin/${tool}`;

/** Runs a tool to completion; exits the script with the tool's code when it fails. */
export function runTool(tool: string, args: string[], options: SpawnOptions = {}): void {
  const result = spawnSync(bin(tool), args, { cwd: ROOT, stdio: 'inherit', env: TOOL_ENV, ...options });
  if (result.status !== 0) {
    console.error(`${tool} ${args.join(' ')} failed (${result.status ?? result.signal})`);
    process.exit(result.status ?? 1);
  }
}

/** Runs a tool and returns its stdout; throws with its stderr when it fails. */
export function captureTool(tool: string, args: string[]): string {
  const result = spawnSync(bin(tool), args, { cwd: ROOT, encoding: 'utf8', env: TOOL_ENV });
  if (result.status !== 0) throw new Error(`${tool} ${args.join(' ')} failed:\n${result.stderr}`);
  return result.stdout;
}

/** Starts a long-running tool. */
export function startTool(tool: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  return spawn(bin(tool), args, { cwd: ROOT, env: TOOL_ENV, ...options });
}
