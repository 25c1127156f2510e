/**
 * SKAdNetwork's `attribution-signature` is an ASN.1 DER `SEQUENCE { r INTEGER, s INTEGER }`; WebCrypto
 * verifies ECDSA over the raw `r ‖ s` form (IEEE P1363). This reads one into the other, strictly.
 */

const SIZE = 32; // P-256

/** The 64-byte `r ‖ s` of a DER ECDSA P-256 signature, or null when the bytes are not one. */
export function rawSignatureOf(der: Uint8Array): Uint8Array | null {
  if (der.length < 8 || der[0] !== 0x30 || der[1] !== der.length - 2) return null;
  const raw = new Uint8Array(SIZE * 2);
  let at = 2;
  for (const offset of [0, SIZE]) {
    if (der[at] !== 0x02) return null;
    const length = der[at + 1] ?? 0;
    const start = at + 2;
    if (length === 0 || start + length > der.length) return null;
    let value = der.subarray(start, start + length);
    // A leading zero only keeps a high bit from reading as a sign; more than that is not DER.
    while (value.length > SIZE && value[0] === 0) value = value.subarray(1);
    if (value.length > SIZE) return null;
    raw.set(value, offset + SIZE - value.length);
    at = start + length;
  }
  return at === der.length ? raw : null;
}

/** The bytes of standard or URL-safe base64 `text`, or null when it is not base64. */
export function base64Bytes(text: string): Uint8Array | null {
  const standard = text.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(standard)) return null;
  try {
    const padded = standard.padEnd(Math.ceil(standard.length / 4) * 4, '=');
    return Uint8Array.from(atob(padded), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}
