/**
 * The operators' CLIs' arguments and refusals (docs/operators.md#clis): a bad flag, a missing value or
 * a stray word is one line on stderr saying what to do, exit 2, never a stack trace.
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';

/** A CLI's refusal: `npm run <name>: <message>` on one line, exit 2. */
export function refuse(name: string, message: string): never {
  // One line: a message carrying the user's own text (a flag's value) may hold a line break.
  console.error(`npm run ${name}: ${message.replace(/\s+/g, ' ')}`);
  process.exit(2);
}

/**
 * `parseArgs` of this process's arguments under `options`; what it cannot read (an unknown flag, a
 * flag without its value, a positional argument) is refused with `usage`.
 */
export function cliArgs<O extends NonNullable<ParseArgsConfig['options']>>(
  name: string,
  usage: string,
  options: O,
  args: string[] = process.argv.slice(2),
) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false });
  } catch (error) {
    // Node's own words, first sentence only (`Unknown option '--frmo'`), then how to call it.
    const said = error instanceof Error ? (error.message.split(/\.\s/)[0] ?? error.message) : String(error);
    return refuse(name, `${said}; ${usage}`);
  }
}
