/** Mints campaign links with the real `npm run link` script, for the worker tests to open. */
import { execFileSync } from 'node:child_process';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    campaignLink: string;
    hostileCampaignLink: string;
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
  project.provide(
    'campaignLink',
    link(['--channel', 'spring-sale', '--inviter', 'Ann Lee', '--plain', 'utm_source=mail']),
  );
  project.provide('hostileCampaignLink', link(['--channel', 'x\u2029y', '--inviter', HOSTILE_INVITER]));
}
