/**
 * Checks a configuration document and reports each problem with the JSON path where it is
 * (`$.appData[0].plat`), for `config:push` and for the worker's log line.
 */
import * as v from 'valibot';
import { ConfigSchema, type LanderConfig } from '../../shared/config/schema.ts';

export interface ConfigProblem {
  /** Where the problem is, as a JSON path: `$`, `$.domains[1]`, `$.commonConfig.tagline["zh-CN"]`. */
  path: string;
  message: string;
}

export type ConfigResult = { ok: true; config: LanderConfig } | { ok: false; problems: ConfigProblem[] };

function jsonPath(keys: readonly unknown[]): string {
  let path = '$';
  for (const key of keys) {
    if (typeof key === 'number') path += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) path += `.${key}`;
    else path += `[${JSON.stringify(String(key))}]`;
  }
  return path;
}

/** Validates an already parsed document and applies the schema's defaults. */
export function validateConfig(value: unknown): ConfigResult {
  const result = v.safeParse(ConfigSchema, value);
  if (result.success) return { ok: true, config: result.output };
  return {
    ok: false,
    problems: result.issues.map((issue) => ({
      path: jsonPath((issue.path ?? []).map((item) => item.key)),
      message: issue.message,
    })),
  };
}

/** Parses JSON text and validates it; text that is not JSON is one problem at `$`. */
export function parseConfig(text: string): ConfigResult {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [{ path: '$', message: `not JSON: ${(error as Error).message}` }] };
  }
  return validateConfig(value);
}

/** One line per problem, for logs and the terminal. */
export function formatProblems(problems: readonly ConfigProblem[]): string {
  return problems.map((p) => `${p.path}: ${p.message}`).join('\n');
}
