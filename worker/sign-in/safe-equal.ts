/**
 * Compares a secret with what a request sent without telling, by its timing, how much of it matched
 * (docs/operators.md): both are hashed to 32 bytes first, so even their lengths take equal time, and
 * the runtime's `timingSafeEqual` compares the hashes.
 */
const encoder = new TextEncoder();

const digest = (text: string): Promise<ArrayBuffer> => crypto.subtle.digest('SHA-256', encoder.encode(text));

/** Whether `given` equals `secret`, in time independent of where they differ. */
export async function safeEqual(given: string, secret: string): Promise<boolean> {
  const [a, b] = await Promise.all([digest(given), digest(secret)]);
  return crypto.subtle.timingSafeEqual(a, b);
}
