/**
 * Deterministic stand-ins for the names Kubernetes derives from hashes and random strings.
 *
 * Upstream, a Deployment's pod-template-hash (and a DaemonSet's or StatefulSet's controller-revision-hash) is an
 * FNV-32a hash over a Go-specific dump of the PodTemplateSpec (controller.ComputeHash), and a generated pod name
 * ends in five random characters (utilrand.String in the API server's name generator). Neither can be reproduced
 * outside Go and a live cluster, so we keep their form but not their value: an FNV-1a hash over the template's
 * canonical JSON, and suffixes derived from a seed. Both are rendered with the controllers' SafeEncodeString
 * alphabet, so names look like the real ones ("web-7c5ddbdf54-x2bqm") and are the same on every run.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/controller/controller_utils.go (ComputeHash)
 * https://github.com/kubernetes/apimachinery/blob/master/pkg/util/rand/rand.go (SafeEncodeString, String)
 */

/** The characters of utilrand.String and SafeEncodeString: no vowels, no 0, 1 or 3, to avoid words. */
export const SAFE_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';

const FNV_OFFSET_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const UTF8 = new TextEncoder();
const HEX_DIGITS = '0123456789abcdef';

/** FNV-1a, 32 bits, over the UTF-8 bytes of a string. */
export function fnv1a32(text: string): number {
  // An ASCII character is its own UTF-8 byte: hashed from the string, without encoding a copy of it (a pod
  // template's JSON is hashed for every workload of every simulation). Other text goes through the encoder.
  let ascii = FNV_OFFSET_BASIS;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) {
      return fnv1a32Encoded(text);
    }
    ascii ^= code;
    ascii = Math.imul(ascii, FNV_PRIME) >>> 0;
  }
  return ascii >>> 0;
}

/** FNV-1a continued from the hash of some text over ASCII text that follows it: fnv1a32(before + text). */
function continueFnv1a32(hash: number, asciiText: string): number {
  let next = hash;
  for (let i = 0; i < asciiText.length; i++) {
    next ^= asciiText.charCodeAt(i);
    next = Math.imul(next, FNV_PRIME) >>> 0;
  }
  return next >>> 0;
}

function fnv1a32Encoded(text: string): number {
  let hash = FNV_OFFSET_BASIS;
  for (const byte of UTF8.encode(text)) {
    hash ^= byte;
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash >>> 0;
}

/** SafeEncodeString: each character replaced by SAFE_ALPHABET[code % 27], as the controllers encode hashes. */
export function safeEncodeString(text: string): string {
  let encoded = '';
  for (const char of text) {
    encoded += SAFE_ALPHABET[(char.codePointAt(0) ?? 0) % SAFE_ALPHABET.length] ?? '';
  }
  return encoded;
}

/**
 * JSON with object keys sorted, so that equal data always has the same text: array items in order (an absent
 * item of a sparse array as nothing, as join writes it; undefined as null), object keys sorted by code unit,
 * undefined values left out. Built by appending to one string (a template is hashed per workload per simulation).
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index++) {
      if (index > 0) {
        text += ',';
      }
      if (index in value) {
        text += canonicalJson(value[index]);
      }
    }
    return `${text}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    let text = '{';
    for (const key of keys) {
      const entry = record[key];
      if (entry !== undefined) {
        text += `${text.length > 1 ? ',' : ''}${JSON.stringify(key)}:${canonicalJson(entry)}`;
      }
    }
    return `${text}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The hashes of the templates hashed so far, by object. A workload's template is the manifest's own object, the
 * same object run after run while its document is not edited (the language server's analyzer reuses the objects
 * of unchanged documents, and the prediction worker holds them between runs: host/simulation-transfer.ts), and
 * nothing mutates what was read (the engine clones what it changes), so its hash is computed once per edit of
 * its document rather than once per keystroke (its canonical JSON was about a tenth of a 1,000-object run).
 */
const templateHashes = new WeakMap<object, string>();

/**
 * Our pod-template-hash / controller-revision-hash: the decimal FNV-1a hash of the template's canonical JSON,
 * safe-encoded like ComputeHash's result (so 9 or 10 characters from SAFE_ALPHABET).
 */
export function templateHash(template: unknown): string {
  if (typeof template !== 'object' || template === null) {
    return safeEncodeString(String(fnv1a32(canonicalJson(template))));
  }
  let hash = templateHashes.get(template);
  if (hash === undefined) {
    hash = safeEncodeString(String(fnv1a32(canonicalJson(template))));
    templateHashes.set(template, hash);
  }
  return hash;
}

/** A string of SAFE_ALPHABET characters derived from a seed: our stand-in for utilrand.String(length). */
export function seededSuffix(seed: string, length = 5): string {
  let state = fnv1a32(seed);
  let suffix = '';
  for (let i = 0; i < length; i++) {
    if (i > 0 && i % 6 === 0) {
      state = fnv1a32(`${seed}#${i}`);
    }
    suffix += SAFE_ALPHABET[state % SAFE_ALPHABET.length] ?? '';
    state = Math.floor(state / SAFE_ALPHABET.length);
  }
  return suffix;
}

/** A UUID-shaped identifier derived from a seed: our stand-in for the UID the API server assigns. */
export function seededUid(seed: string): string {
  // The four parts hash `${seed}/0` to `${seed}/3`: FNV-1a reads bytes in order, so the seed is hashed once and
  // each part continues from it with its two ASCII bytes (a UID is made per pod-owning object of every run).
  // Each hash is written as 8 lowercase hex digits (toString(16) padded with zeros, without its runtime call).
  const seedHash = fnv1a32(seed);
  let hex = '';
  for (let part = 0; part < 4; part++) {
    const hash = continueFnv1a32(seedHash, `/${part}`);
    for (let shift = 28; shift >= 0; shift -= 4) {
      hex += HEX_DIGITS[(hash >>> shift) & 15] ?? '';
    }
  }
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
