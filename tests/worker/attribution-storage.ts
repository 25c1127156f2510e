/**
 * What attribution's Durable Objects hold, read straight from their SQLite storage inside workerd:
 * the worker tests check what is stored (docs/attribution.md, "What is stored") and age it, without
 * the objects carrying a reading method for them.
 */
import { runInDurableObject } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import type { ClickBucket } from '../../worker/attribution/click-bucket.ts';
import type { AttributionLedger } from '../../worker/attribution/ledger.ts';
import { bucketFor } from '../../worker/attribution/ledger.ts';
import { networkOf } from '../../worker/attribution/network.ts';
import { networkKeys } from '../../worker/attribution/record-click.ts';
import { DEV_ATTRIBUTION_SALT } from '../../worker/settings.ts';

/** The bucket that holds the clicks of `address`'s network, under the development salt. */
export async function bucketOf(address: string): Promise<DurableObjectStub<ClickBucket>> {
  const network = networkOf(address);
  if (!network) throw new Error(`not an address: ${address}`);
  return bucketFor(env, 'default', (await networkKeys(DEV_ATTRIBUTION_SALT, network)).bucket);
}

/** Every row of `table` in a bucket or a ledger shard. */
export function rowsOf(
  stub: DurableObjectStub<ClickBucket> | DurableObjectStub<AttributionLedger>,
  table: string,
): Promise<Record<string, SqlStorageValue>[]> {
  return runInDurableObject(stub, (_: ClickBucket | AttributionLedger, state) =>
    state.storage.sql.exec<Record<string, SqlStorageValue>>(`SELECT * FROM ${table}`).toArray(),
  );
}

/** Runs `query` with `bindings` in the bucket of `address`'s network (to age or expire its clicks). */
export async function inBucket(address: string, query: string, ...bindings: SqlStorageValue[]): Promise<void> {
  await runInDurableObject(await bucketOf(address), (_: ClickBucket, state) => {
    state.storage.sql.exec(query, ...bindings);
  });
}
