/**
 * What docs/privacy.md's data map is checked against (tests/unit/privacy-data-map.test.ts): every
 * D1 table and its columns, replayed from the migrations in order (`CREATE TABLE`, `ALTER TABLE … ADD
 * COLUMN`, `RENAME COLUMN`, `RENAME TO`, `DROP TABLE`); every table a Durable Object class creates in
 * its SQLite storage, read from the worker's sources; and the map's own rows, read from its table.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Table name → its columns, in order. */
export type Tables = Map<string, string[]>;

const withoutComments = (sql: string): string => sql.replace(/--[^\n]*/g, '');

/** The column names of a `CREATE TABLE` body: each part that is not a constraint. */
function columnsOf(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of body) {
    if (char === '(') depth += 1;
    if (char === ')') depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts
    .map((part) => part.trim())
    .filter((part) => part && !/^(PRIMARY|UNIQUE|CHECK|FOREIGN|CONSTRAINT)\b/i.test(part))
    .map((part) => part.split(/\s+/)[0] ?? '');
}

/** `CREATE TABLE [IF NOT EXISTS] name (body)` statements of `sql`, with their bodies. */
function* createsIn(sql: string): Generator<{ name: string; columns: string[] }> {
  const create = /CREATE TABLE (?:IF NOT EXISTS )?(\w+)\s*\(/gi;
  for (let match = create.exec(sql); match; match = create.exec(sql)) {
    let depth = 1;
    let end = create.lastIndex;
    while (depth > 0 && end < sql.length) {
      if (sql[end] === '(') depth += 1;
      if (sql[end] === ')') depth -= 1;
      end += 1;
    }
    yield { name: match[1] ?? '', columns: columnsOf(sql.slice(create.lastIndex, end - 1)) };
  }
}

/** The D1 schema the migrations in `dir` leave, applied in their order. */
export function d1Tables(dir: string): Tables {
  const tables: Tables = new Map();
  const files = readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort();
  for (const file of files) {
    const sql = withoutComments(readFileSync(join(dir, file), 'utf8'));
    for (const statement of sql.split(';')) {
      const text = statement.trim();
      const [created] = [...createsIn(`${text};`)];
      if (created) {
        tables.set(created.name, created.columns);
        continue;
      }
      let match = /^ALTER TABLE (\w+) ADD COLUMN (\w+)/i.exec(text);
      if (match) {
        tables.get(match[1] ?? '')?.push(match[2] ?? '');
        continue;
      }
      match = /^ALTER TABLE (\w+) RENAME COLUMN (\w+) TO (\w+)/i.exec(text);
      if (match) {
        const columns = tables.get(match[1] ?? '') ?? [];
        tables.set(
          match[1] ?? '',
          columns.map((column) => (column === match?.[2] ? (match?.[3] ?? '') : column)),
        );
        continue;
      }
      match = /^ALTER TABLE (\w+) RENAME TO (\w+)/i.exec(text);
      if (match) {
        tables.set(match[2] ?? '', tables.get(match[1] ?? '') ?? []);
        tables.delete(match[1] ?? '');
        continue;
      }
      match = /^DROP TABLE (?:IF EXISTS )?(\w+)/i.exec(text);
      if (match) tables.delete(match[1] ?? '');
    }
  }
  return tables;
}

/** Each Durable Object class's SQLite tables (`<Class> <table>` → columns), from the sources under `dir`. */
export function objectTables(dir: string): Tables {
  const tables: Tables = new Map();
  const walk = (path: string): string[] =>
    readdirSync(path, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? walk(join(path, entry.name)) : entry.name.endsWith('.ts') ? [join(path, entry.name)] : [],
    );
  for (const file of walk(dir)) {
    const text = readFileSync(file, 'utf8');
    const owner = /export class (\w+) extends (?:DurableObject|SweptObject)\b/.exec(text)?.[1];
    if (!owner) continue;
    for (const { name, columns } of createsIn(text)) tables.set(`${owner} ${name}`, columns);
  }
  return tables;
}

/** A row of the data map: its cells by the table's header. */
export type MapRow = Record<string, string>;

/** The rows of the first Markdown table under `## <heading>` of `markdown`. */
export function tableUnder(markdown: string, heading: string): MapRow[] {
  const section = markdown.split(/^## /m).find((part) => part.startsWith(`${heading}\n`)) ?? '';
  const lines = section.split('\n').filter((line) => line.startsWith('|'));
  const cells = (line: string) =>
    line
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim());
  const [header = '', , ...rows] = lines;
  const names = cells(header);
  return rows.map((line) => Object.fromEntries(cells(line).map((cell, i) => [names[i] ?? `${i}`, cell])));
}
