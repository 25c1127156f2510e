/**
 * What `GET /api/fraud` answers the console (docs/fraud.md): per inviter and channel, the installs
 * and those the rules flagged, the anomalies, and the flagged installs with their reasons. No install
 * id, address or visitor id: an install is a short prefix of its keyed hash.
 */

/** One inviter and channel's installs over the range. */
export interface FraudGroup {
  channel: string;
  inviter: string;
  installs: number;
  /** Installs flagged by any rule. */
  flagged: number;
  byRule: Record<string, number>;
}

/** A day of a group that an anomaly rule flagged (worker/fraud/anomalies.ts). */
export interface FraudAnomaly {
  day: string;
  channel: string;
  inviter: string;
  rule: string;
  installs: number;
  observed: number;
  threshold: number;
  reason: string;
}

/** A flagged install and why. */
export interface FlaggedInstall {
  /** The first 12 characters of the install's keyed hash. */
  install: string;
  at: string;
  channel: string;
  inviter: string;
  method: string;
  flags: { rule: string; reason: string }[];
}

export interface FraudReport {
  from: string;
  to: string;
  /** The rules whose flagged installs leave the counted figures (`fraud.exclude`). */
  excluded: string[];
  groups: FraudGroup[];
  anomalies: FraudAnomaly[];
  installs: FlaggedInstall[];
}
