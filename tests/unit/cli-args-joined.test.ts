/**
 * A command's string option whose value starts with `-` (a base64url key or token, one in 64 does):
 * read as its value, never refused as "ambiguous" (scripts/lib/cli-args.ts `joinedValues`).
 */
import { describe, expect, it } from 'vitest';
import { cliArgsWithFiles, joinedValues } from '../../scripts/lib/cli-args.ts';

const OPTIONS = { head: { type: 'string' }, 'public-key': { type: 'string' }, verbose: { type: 'boolean' } } as const;

describe("a string option's value that starts with -", () => {
  it('is joined to its option, and read as its value', () => {
    const args = ['log.ndjson', '--head', 'head.json', '--public-key', '-Xy_z9'];
    expect(joinedValues(args, OPTIONS)).toEqual(['log.ndjson', '--head', 'head.json', '--public-key=-Xy_z9']);
    expect(cliArgsWithFiles('test', 'usage', OPTIONS, args).values['public-key']).toBe('-Xy_z9');
  });

  it('leaves another option, a boolean option and everything after -- as they are', () => {
    expect(joinedValues(['--head', '--verbose'], OPTIONS)).toEqual(['--head', '--verbose']);
    expect(joinedValues(['--verbose', '-x'], OPTIONS)).toEqual(['--verbose', '-x']);
    expect(joinedValues(['--', '--head', '-x'], OPTIONS)).toEqual(['--', '--head', '-x']);
  });
});
