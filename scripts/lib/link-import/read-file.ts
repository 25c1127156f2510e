/**
 * The export file's text, refused before it is parsed when it cannot be one
 * (docs/operators.md#bring-your-links): larger than any export a deployment imports at once, UTF-16
 * (a spreadsheet's "Unicode text"), binary (a NUL byte), or not UTF-8.
 */
import { readFileSync, statSync } from 'node:fs';

/** The largest file read: 32 MiB holds well over `MAX_LINKS` links of any of the formats. */
export const MAX_FILE_BYTES = 32 * 1024 * 1024;

export type FileRead = { ok: true; text: string } | { ok: false; reason: string };

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

/** Why `bytes` are no text export, or undefined when they are UTF-8 text. */
export function textRefusal(bytes: Uint8Array): string | undefined {
  const [first, second] = bytes;
  if ((first === 0xff && second === 0xfe) || (first === 0xfe && second === 0xff)) {
    return 'it is UTF-16 text: save the export as UTF-8';
  }
  const nul = bytes.indexOf(0);
  if (nul !== -1) return `it holds a NUL byte (at byte ${nul}): a binary file, not a text export`;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return 'it is not UTF-8 text: save the export as UTF-8';
  }
  return undefined;
}

/** The text of the export at `path`, or why it is not read (the size checked before reading). */
export function readExportFile(path: string): FileRead {
  try {
    const { size } = statSync(path);
    if (size > MAX_FILE_BYTES) {
      return { ok: false, reason: `it is ${mib(size)}; an import reads at most ${mib(MAX_FILE_BYTES)}: split it` };
    }
    const bytes = readFileSync(path);
    const why = textRefusal(bytes);
    return why === undefined ? { ok: true, text: bytes.toString('utf8') } : { ok: false, reason: why };
  } catch (error) {
    return { ok: false, reason: `cannot read it (${error instanceof Error ? error.message : String(error)})` };
  }
}

/** C0 and C1 control characters, DEL, and the line and paragraph separators. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it escapes
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * `text` safe to print to a terminal: control characters (an escape sequence hidden in a slug of the
 * file, which would recolour, rewrite or hyperlink the operator's terminal) shown as `\u001b`.
 */
export const printable = (text: string): string =>
  text.replace(CONTROL, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
