/**
 * Which section belongs to which command (docs/benchmarks.md). The budget part, `npm run bench`, is
 * every figure with a budget the product is held to: sizes, the page against a static file,
 * Lighthouse, and the per-request costs of detection, the QR code, a link's rules, counting, the cohorts' read,
 * attribution, stamped downloads, webhook delivery and conversions out. The lab, `npm run bench:lab`, is what is run on demand to explore: the initial JS by
 * package, a traffic mix of real agents, the CPU profile, peers, the build calls and the main thread;
 * with `--load`, the load modes and a memory soak.
 */
import { apkStamping } from './apk-stamping.ts';
import { apps } from './apps.ts';
import { attribution } from './attribution.ts';
import { builds } from './builds.ts';
import { bursts } from './bursts.ts';
import { cohorts } from './cohorts.ts';
import { composition } from './composition.ts';
import type { BenchSection } from './context.ts';
import { conversions } from './conversions.ts';
import { detect } from './detect.ts';
import { funnel } from './funnel.ts';
import { hotNetwork } from './hot-network.ts';
import { http } from './http.ts';
import { identity } from './identity.ts';
import { lighthouseSection } from './lighthouse.ts';
import { linkCard } from './link-card.ts';
import { loadModes } from './load-modes.ts';
import { mainThread } from './main-thread.ts';
import { newIsolate } from './new-isolate.ts';
import { peers } from './peers.ts';
import { cpuProfile } from './profile.ts';
import { qr } from './qr.ts';
import { rules } from './rules.ts';
import { rulesPage } from './rules-page.ts';
import { sizes } from './sizes.ts';
import { soak } from './soak.ts';
import { startup } from './startup.ts';
import { trafficMix } from './traffic-mix.ts';
import { webhooks } from './webhooks.ts';

/** `npm run bench`, in the order it runs them. */
export const BUDGET_SECTIONS: BenchSection[] = [
  sizes,
  startup,
  identity,
  detect,
  qr,
  linkCard,
  rules,
  http,
  rulesPage,
  apps,
  newIsolate,
  funnel,
  cohorts,
  attribution,
  apkStamping,
  webhooks,
  conversions,
  lighthouseSection,
];

/** The seconds of the memory soak `--load` and `--soak` ask for (0: none). */
export function soakSeconds(flags: { load: boolean; soak?: string }): number {
  return Number(flags.soak ?? (flags.load ? 300 : 0));
}

/**
 * `npm run bench:lab`: the exploratory figures; `--load` runs the load modes and a memory soak
 * instead (`--soak SECONDS`, default 300), `--soak` alone only the soak.
 */
export function labSections(flags: { load: boolean; soak?: string }): BenchSection[] {
  const seconds = soakSeconds(flags);
  if (!flags.load && seconds === 0) return [composition, trafficMix, cpuProfile, peers, builds, mainThread];
  return [...(flags.load ? [loadModes, hotNetwork, bursts] : []), ...(seconds > 0 ? [soak(seconds)] : [])];
}
