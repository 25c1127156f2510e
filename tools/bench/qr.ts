/**
 * The desktop QR code's cost (docs/screens.md): encoding and drawing one code for a URL never seen
 * before (no kept image), by URL length, on one core in Node (the same V8 as workerd).
 */
import { qrImage } from '../../worker/lib/qr-code.ts';
import type { BenchRow, BenchSection } from './context.ts';

const LENGTHS = [100, 500, 1000, 2000];
const BUDGET_MS = 2;

/** A campaign-like URL of exactly `length` characters, made unique by `n`. */
function urlOf(length: number, n: number): string {
  const head = `https://get.lander.example/landing?n=${n}&d=`;
  return head + 'Ab3_-x9Qz'.repeat(Math.ceil(length / 9)).slice(0, Math.max(0, length - head.length));
}

function medianMs(length: number, rounds: number, offset: number): number {
  const times: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const url = urlOf(length, offset + i);
    const start = performance.now();
    qrImage(url);
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? Number.NaN;
}

export const qr: BenchSection = {
  title: 'Desktop QR code (Node, one core, a new URL each time)',
  async run() {
    for (const length of LENGTHS) medianMs(length, 30, 1e6); // warm-up: let the JIT settle
    return LENGTHS.map((length, index): BenchRow => {
      const ms = medianMs(length, length > 500 ? 100 : 300, 2e6 + index * 1e5);
      const bytes = qrImage(urlOf(length, 0))?.src.length ?? 0;
      return {
        name: `URL of ${length} characters (image ${bytes.toLocaleString('en-US')} B)`,
        value: `${ms.toFixed(2)} ms median`,
        budget: { limit: `≤ ${BUDGET_MS} ms`, ok: ms <= BUDGET_MS },
      };
    });
  },
};
