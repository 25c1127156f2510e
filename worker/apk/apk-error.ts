/**
 * The one error of the APK code (docs/apk-stamping.md): thrown by the worker's stamp (a carrier too
 * long) and by the Node code that reads, reserves and checks parents (scripts/lib/apk/).
 */

export type ApkErrorCode =
  | 'not-zip'
  | 'zip64'
  | 'unsigned'
  | 'malformed'
  | 'truncated'
  | 'not-reserved'
  | 'already-stamped'
  | 'carrier-too-long';

/** Why an APK (or a carrier) cannot be reserved or stamped; `code` is for programs, the message for people. */
export class ApkError extends Error {
  readonly code: ApkErrorCode;
  /** For `truncated`: the absolute offset the bytes given must start at or before. */
  readonly needFrom: number | undefined;
  constructor(code: ApkErrorCode, message: string, needFrom?: number) {
    super(message);
    this.name = 'ApkError';
    this.code = code;
    this.needFrom = needFrom;
  }
}
