/**
 * Sends one event to the funnel's queue (docs/operators.md) after the response: the send runs under
 * `ctx.waitUntil`, so it never delays a page, and a failure is logged, never thrown, so a broken
 * queue never breaks one either. Counting is done by the queue's consumer (consume-batch.ts).
 */
import { type EventInput, type FunnelMessage, utcDay } from './events.ts';
import { funnelSalt, visitorHash } from './visitor-key.ts';

/** The queue message of `input`, happening at `now` (ms); the visitor hashed with the day's key. */
export async function messageOf(env: Env, input: EventInput, now = Date.now()): Promise<FunnelMessage> {
  const day = utcDay(now);
  const salt = input.visitor ? funnelSalt(env) : undefined;
  const message: FunnelMessage = { v: 1, id: crypto.randomUUID(), day, event: input.event, dims: input.dims };
  if (salt && input.visitor) message.visitor = await visitorHash(salt, day, input.visitor);
  return message;
}

async function send(env: Env, input: EventInput): Promise<void> {
  try {
    await env.FUNNEL_QUEUE.send(await messageOf(env, input), { contentType: 'json' });
  } catch (error) {
    console.error('Funnel event not sent', error instanceof Error ? error.message : String(error));
  }
}

/** Counts `input` in the funnel, after the response; never throws, never waits. */
export function recordEvent(env: Env, ctx: Pick<ExecutionContext, 'waitUntil'>, input: EventInput): void {
  try {
    ctx.waitUntil(send(env, input));
  } catch (error) {
    // Only a context without waitUntil (a unit test's app.request) gets here: the event is dropped.
    console.error('Funnel event not sent', error instanceof Error ? error.message : String(error));
  }
}
