/**
 * The console's call to `GET /api/fraud` (docs/fraud.md), with the admin API's sign-in headers; the
 * answer is the contract's own type (shared/fraud-contract.ts).
 */
import type { FraudReport } from '../../../../shared/fraud-contract.ts';
import type { HttpClient } from '../../http-client.ts';

export type { FraudReport };

/** The fraud report of `range`, optionally one inviter's or one channel's. */
export function fraudApi(client: HttpClient, headers: Record<string, string>) {
  return {
    report(
      range: { from: string; to: string },
      only: { inviter?: string; channel?: string } = {},
    ): Promise<FraudReport> {
      const query = new URLSearchParams({ ...range });
      if (only.inviter !== undefined) query.set('inviter', only.inviter);
      if (only.channel !== undefined) query.set('channel', only.channel);
      return client<FraudReport>(`/api/fraud?${query}`, { headers });
    },
  };
}

export type FraudApi = ReturnType<typeof fraudApi>;
