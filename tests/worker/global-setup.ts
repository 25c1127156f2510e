/**
 * Mints campaign links with the real `npm run link` script, builds a real signed, reserved parent
 * APK (apksigner cannot run in workerd) and reads the real-agent corpus (workerd has no file system),
 * for the worker tests to use.
 */
import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { reserveApk } from '../../scripts/lib/apk/reserve.ts';
import { filled, signedApk } from '../fixtures/apk.ts';
import { loadCases } from '../fixtures/conformance.ts';
import { readCorpus } from '../fixtures/ua-corpus.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    campaignLink: string;
    hostileCampaignLink: string;
    /** A reserved parent APK signed v2 + v3, base64: a few hundred kB, so R2 streams it in many chunks. */
    apkParent: string;
    /** The agents of tests/fixtures/ua-corpus.tsv, in its order. */
    corpusAgents: string[];
  }
}

export const HOSTILE_INVITER = '</script><script>alert(1)</script>\u2028<img src=x onerror=alert(2)>';

function link(args: string[]): string {
  return execFileSync(process.execPath, ['scripts/link.ts', ...args], {
    encoding: 'utf8',
    env: { ...process.env, DECODE_KEY: '' },
  }).trim();
}

export default function setup(project: TestProject): void {
  // As a mailer passes the link on, with a tracking parameter of its own that no page reads.
  project.provide('campaignLink', `${link(['--channel', 'spring-sale', '--inviter', 'Ann Lee'])}&utm_source=mail`);
  const parent = reserveApk(signedApk({ 'classes.dex': filled(300_000, 7) }));
  project.provide('apkParent', Buffer.from(parent).toString('base64'));
  project.provide(
    'corpusAgents',
    readCorpus().map((row) => row.agent),
  );
  // workerd has no file system: the SDK conformance cases (sdk/conformance) come from here.
  project.provide('conformanceCases', loadCases());
  project.provide('hostileCampaignLink', link(['--channel', 'x\u2029y', '--inviter', HOSTILE_INVITER]));
}
