/**
 * The tools tests that run real wrk need it installed (`npm run prerequisites` brings it): without
 * it they fail with how to get it, never skip in silence.
 */
import { spawnSync } from 'node:child_process';

/** Throws, naming the Debian package and the step that installs it, when `wrk` is not on PATH. */
export function needWrk(): void {
  if (spawnSync('wrk', ['--version']).error !== undefined) {
    throw new Error(
      'This test runs real wrk, which is not installed: run `npm run prerequisites` (Debian package wrk)',
    );
  }
}
