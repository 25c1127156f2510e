/** The part of `@mdn/mdn-http-observatory` (plain JavaScript, no types) that Lander uses. */
declare module '@mdn/mdn-http-observatory' {
  export interface ObservatoryTest {
    expectation: string;
    pass: boolean | null;
    result: string | null;
    scoreModifier: number;
    scoreDescription?: string;
  }

  export interface ObservatoryScan {
    algorithmVersion: number;
    grade: string;
    error: string | null;
    score: number;
    statusCode: number;
    testsFailed: number;
    testsPassed: number;
    testsQuantity: number;
    responseHeaders: Record<string, string>;
  }

  export interface ObservatoryResult {
    scan: ObservatoryScan;
    tests: Record<string, ObservatoryTest>;
  }

  /** Scans `https://{hostname}` and `http://{hostname}`; `hostname` may carry a port and a path. */
  export function scan(hostname: string): Promise<ObservatoryResult>;
}
