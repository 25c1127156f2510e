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
/**
 * `args` with each string option's value joined to it (`--public-key -abc` → `--public-key=-abc`):
 * Node reads a value that starts with `-` as "ambiguous", and a base64url key or token starts with one
 * in one case of 64. A value that is itself one of `options` (`--head --public-key`) is left as it is.
 */
export function joinedValues(args: readonly string[], options: NonNullable<ParseArgsConfig['options']>): string[] {
  const joined: string[] = [];
  const flags = new Set(
    Object.entries(options).flatMap(([name, option]) => [`--${name}`, ...(option.short ? [`-${option.short}`] : [])]),
  );
  for (let at = 0; at < args.length; at++) {
    const arg = args[at] ?? '';
    if (arg === '--') {
      joined.push(...args.slice(at));
      break;
    }
    const name = arg.startsWith('--') ? arg.slice(2) : null;
    const next = args[at + 1];
    if (
      name &&
      options[name]?.type === 'string' &&
      next?.startsWith('-') &&
      next !== '--' &&
      !flags.has(next.split('=')[0] ?? '')
    ) {
      joined.push(`${arg}=${next}`);
      at++;
    } else joined.push(arg);
  }
  return joined;
}

export function cliArgs<O extends NonNullable<ParseArgsConfig['options']>>(
  name: string,
  usage: string,
  options: O,
  args: string[] = process.argv.slice(2),
) {
  try {
    return parseArgs({ args: joinedValues(args, options), options, strict: true, allowPositionals: false });
  } catch (error) {
    // Node's own words, first sentence only (`Unknown option '--frmo'`), then how to call it.
    const said = error instanceof Error ? (error.message.split(/\.\s/)[0] ?? error.message) : String(error);
    return refuse(name, `${said}; ${usage}`);
  }
}

/** What `--help` prints for a command: what it does, how to call it, its flags and an example. */
export interface CliHelp {
  summary: string;
  usage: string;
  flags: readonly (readonly [flag: string, meaning: string])[];
  example: string;
}

/** Whether `args` ask for help: `--help` or `-h` before any `--`. */
export function wantsHelp(args: readonly string[] = process.argv.slice(2)): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((arg) => arg === '--help' || arg === '-h');
}

/** The text `--help` prints for `npm run <name>`. */
export function helpText(name: string, help: CliHelp): string {
  const width = Math.max(0, ...help.flags.map(([flag]) => flag.length));
  const flags = help.flags.map(([flag, meaning]) => `  ${flag.padEnd(width)}  ${meaning}`);
  return [
    `npm run ${name}: ${help.summary}`,
    '',
    help.usage,
    '',
    'Flags:',
    ...flags,
    `  ${'-h, --help'.padEnd(width)}  this help`,
    '',
    'Example:',
    `  ${help.example}`,
    '',
  ].join('\n');
}

/**
 * Prints `help` and exits 0 when the process's arguments ask for it; called first, so `--help`
 * answers before anything is read, built or called.
 */
export function helpIfAsked(name: string, help: CliHelp, args: readonly string[] = process.argv.slice(2)): void {
  if (!wantsHelp(args)) return;
  process.stdout.write(helpText(name, help));
  process.exit(0);
}

/**
 * `parseArgs` of `args` with positionals allowed (a command's FILE arguments); an unknown flag or a
 * flag without its value is refused as {@link cliArgs} does.
 */
export function cliArgsWithFiles<O extends NonNullable<ParseArgsConfig['options']>>(
  name: string,
  usage: string,
  options: O,
  args: string[] = process.argv.slice(2),
) {
  try {
    return parseArgs({ args: joinedValues(args, options), options, strict: true, allowPositionals: true });
  } catch (error) {
    const said = error instanceof Error ? (error.message.split(/\.\s/)[0] ?? error.message) : String(error);
    return refuse(name, `${said}; ${usage}`);
  }
}
