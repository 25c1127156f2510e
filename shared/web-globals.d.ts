/**
 * The web platform globals shared code uses, which both the workers runtime and browsers provide.
 * The shared project has neither DOM nor worker types (docs/decisions/006), so any other global a
 * shared file reaches for fails to compile; add it here only if both runtimes have it.
 */
declare class URL {
  constructor(url: string, base?: string);
  readonly href: string;
  readonly origin: string;
  pathname: string;
  readonly protocol: string;
}

declare const crypto: {
  randomUUID(): string;
  getRandomValues<T extends Uint8Array>(array: T): T;
};

declare function btoa(data: string): string;
declare function atob(data: string): string;
