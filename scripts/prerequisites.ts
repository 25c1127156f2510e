/**
 * `npm run prerequisites`, the first step of `npm test` and of `.ci/run`: checks every system program
 * the tests need (the table of scripts/lib/prerequisites.ts) and installs the missing ones with
 * Debian's apt when it may (root, or sudo without a password), printing what it installs. Where it
 * may not, it stops at once, before anything is built, with the one command to run. Flags:
 *
 *   --check         only report: exit 1 with the command when something is missing, install nothing
 *   --root DIR      look for files under DIR instead of / (what a bare machine would be told)
 *   --project NAME  only what that test project runs (unit, worker, browser, tools); repeatable
 */
import { spawnSync } from 'node:child_process';
import { delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import {
  type Lookup,
  PREREQUISITES,
  type Prerequisite,
  plan,
  prerequisitesOf,
  systemLookup,
  TEST_PROJECTS,
  type TestProject,
} from './lib/prerequisites.ts';

/** Checks, installs what it may, and returns the exit code; every line goes to `log`. */
export function ensurePrerequisites(
  look: Lookup,
  check: boolean,
  log: (line: string) => void,
  table: readonly Prerequisite[] = PREREQUISITES,
): number {
  const first = plan(look, table);
  if (first.missing.length === 0) {
    log(`Prerequisites: all ${table.length} present.`);
    return 0;
  }
  log('Prerequisites missing:');
  for (const item of first.missing) log(`  ${item.name} (Debian package ${item.pkg}), for ${item.neededBy}`);
  if (check) {
    log(`Install them with:\n  ${first.command}`);
    return 1;
  }
  if (!first.canInstall) {
    log(`This process cannot install them (it needs apt-get, and root or sudo without a password). Run:`);
    log(`  ${first.command}`);
    return 1;
  }
  log(`Installing with apt-get: ${first.packages.join(' ')}`);
  const env = { ...look.env, PATH: look.path.join(delimiter), DEBIAN_FRONTEND: 'noninteractive' };
  for (const [program = '', ...args] of first.steps) {
    const result = spawnSync(program, args, { stdio: 'inherit', env });
    if (result.status !== 0) {
      log(`${[program, ...args].join(' ')} failed (${result.status ?? result.error?.message ?? result.signal}).`);
      log(`Run:\n  ${first.command}`);
      return 1;
    }
  }
  const after = plan(look, table);
  if (after.missing.length > 0) {
    log(`Still missing after apt-get: ${after.missing.map((item) => item.name).join(', ')}. Run:`);
    log(`  ${after.command}`);
    return 1;
  }
  log(`Prerequisites: all ${table.length} present.`);
  return 0;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({
    options: {
      check: { type: 'boolean', default: false },
      root: { type: 'string', default: '/' },
      project: { type: 'string', multiple: true, default: [] },
    },
  });
  const unknown = values.project.filter((name) => !(TEST_PROJECTS as readonly string[]).includes(name));
  if (unknown.length > 0) {
    console.error(`--project: "${unknown[0]}" is not a test project (${TEST_PROJECTS.join(', ')})`);
    process.exit(2);
  }
  const look = { ...systemLookup(), root: values.root };
  const table = prerequisitesOf(values.project as TestProject[]);
  process.exitCode = ensurePrerequisites(look, values.check, (line) => console.log(line), table);
}
