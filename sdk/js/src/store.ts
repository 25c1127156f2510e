/**
 * What the SDK keeps on the device, as JSON under `lander:<app>:<name>`: the install (its id, the body
 * of the first attempt, the answer), the deferred link and the event queue. A store that fails or holds
 * something unreadable reads as empty: the SDK never throws into the app for it.
 */
import type { Answer, DeferredLink, KeyValueStore } from './types.ts';

/** An event waiting to be sent; `id` makes a retry count once (docs/sdk.md). */
export interface QueuedEvent {
  id: string;
  name: string;
  value?: number;
  /** `value`'s ISO 4217 code (docs/operators.md#revenue). */
  currency?: string;
  /** When it was tracked (ms since 1970); absent in an event kept before it was sent. */
  at?: number;
}

export interface InstallState {
  installId: string;
  /** When the first attempt was made (ms): retries stop 24 hours after it. */
  startedAt?: number;
  /** The first attempt's body, sent again unchanged by every retry. */
  body?: Record<string, unknown>;
  answer?: Answer;
  /** True once the answer is the server's (or a 4xx): never asked again. */
  final?: boolean;
}

interface Shapes {
  install: InstallState;
  link: DeferredLink;
  events: QueuedEvent[];
  /** The user id `identify()` named last: the inviter of `createLink()`. */
  user: string;
}

/** The SDK's keys of the app `app` in `kv`, read and written as JSON. */
export function createStore(kv: KeyValueStore, app: string) {
  const prefix = `lander:${app}:`;
  return {
    async read<K extends keyof Shapes>(name: K): Promise<Shapes[K] | null> {
      try {
        const text = await kv.get(prefix + name);
        return text ? (JSON.parse(text) as Shapes[K]) : null;
      } catch {
        return null;
      }
    },
    async write<K extends keyof Shapes>(name: K, value: Shapes[K] | null): Promise<void> {
      try {
        if (value === null) await kv.remove(prefix + name);
        else await kv.set(prefix + name, JSON.stringify(value));
      } catch {
        // A full or broken store loses what it could not keep; the app goes on.
      }
    },
  };
}
export type Store = ReturnType<typeof createStore>;

/** A new id: a random UUID (v4 layout), from `crypto.getRandomValues` where the platform has it. */
export function newId(): string {
  const bytes = new Uint8Array(16);
  const random = globalThis.crypto?.getRandomValues;
  if (random) random.call(globalThis.crypto, bytes);
  else for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
