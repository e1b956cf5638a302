// FNV-1a over a string's UTF-16 code units: a small, fast, stable 32-bit hash where a
// cryptographic one is not needed: the sandbox's deterministic quirk seeds.
// (src/bulk/key-index.ts hashes bytes of a buffer in place.)
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
