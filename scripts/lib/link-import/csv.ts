/**
 * CSV as RFC 4180 writes it (the exports `npm run import` reads, docs/operators.md#bring-your-links):
 * fields split by commas, a field in double quotes may hold commas, line breaks and `""` for a quote;
 * CRLF or LF line ends; a leading byte-order mark is dropped. A file that breaks these rules (an
 * unclosed quote, a row with more or fewer fields than the header) is refused whole, with its line.
 */

/** The header (names as written) and the rows, each with the line it starts on. */
export interface CsvTable {
  header: string[];
  rows: { line: number; cells: string[] }[];
}

/** The longest record read: an export's row is a few hundred characters; a longer one is no link. */
export const MAX_RECORD_CHARS = 65_536;

export type CsvResult = { ok: true; table: CsvTable } | { ok: false; reason: string };

/** The records of `text`, each with its first line; an unclosed quote is a reason instead. */
function records(text: string): { line: number; cells: string[] }[] | string {
  const out: { line: number; cells: string[] }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  let from = 0;
  for (let i = 0; i < text.length; i += 1) {
    // Checked as it reads: a line of megabytes (or a quote never closed) is refused, not built up.
    if (i - from > MAX_RECORD_CHARS) return `line ${start}: a row longer than ${MAX_RECORD_CHARS} characters`;
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else {
        if (char === '\n') line += 1;
        cell += char;
      }
    } else if (char === '"' && cell === '') quoted = true;
    else if (char === ',') {
      cells.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[i + 1] === '\n') i += 1;
      cells.push(cell);
      out.push({ line: start, cells });
      cells = [];
      cell = '';
      line += 1;
      start = line;
      from = i + 1;
    } else cell += char;
  }
  if (quoted) return `line ${start}: a quoted field is never closed`;
  if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    out.push({ line: start, cells });
  }
  return out;
}

/** The table of a CSV text; blank lines are skipped. */
export function parseCsv(text: string): CsvResult {
  const found = records(text.replace(/^\uFEFF/, ''));
  if (typeof found === 'string') return { ok: false, reason: found };
  const filled = found.filter((record) => record.cells.some((cell) => cell.trim() !== ''));
  const [head, ...rows] = filled;
  if (!head) return { ok: false, reason: 'the file is empty' };
  const ragged = rows.find((row) => row.cells.length !== head.cells.length);
  if (ragged) {
    return {
      ok: false,
      reason: `line ${ragged.line}: ${ragged.cells.length} fields where the header has ${head.cells.length}`,
    };
  }
  return { ok: true, table: { header: head.cells.map((name) => name.trim()), rows } };
}
