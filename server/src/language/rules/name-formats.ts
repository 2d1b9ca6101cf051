import { appendAll } from '../../../../protocol/collections';
/**
 * The string formats the API server checks names, labels and port names against, each returning the API
 * server's own messages (an empty list when the value is valid). Written after
 * k8s.io/apimachinery v0.35 (Kubernetes 1.35):
 * https://github.com/kubernetes/apimachinery/blob/v0.35.0/pkg/util/validation/validation.go (DNS names, port
 * names; "must be no more than N characters"),
 * https://github.com/kubernetes/apimachinery/blob/v0.35.0/pkg/api/validate/content/kube.go (label keys and
 * values; "must be no more than N bytes"), and
 * https://github.com/kubernetes/apimachinery/blob/v0.35.0/pkg/api/validation/path/name.go (path segments).
 * Lengths are counted in UTF-8 bytes, as Go's len() does.
 */

const DNS1123_LABEL_FORMAT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
const DNS1123_SUBDOMAIN_FORMAT = `${DNS1123_LABEL_FORMAT}(\\.${DNS1123_LABEL_FORMAT})*`;
const DNS1035_LABEL_FORMAT = '[a-z]([-a-z0-9]*[a-z0-9])?';
const LABEL_KEY_FORMAT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
const LABEL_VALUE_FORMAT = `(${LABEL_KEY_FORMAT})?`;

const DNS1123_LABEL = new RegExp(`^${DNS1123_LABEL_FORMAT}$`);
const DNS1123_SUBDOMAIN = new RegExp(`^${DNS1123_SUBDOMAIN_FORMAT}$`);
const DNS1035_LABEL = new RegExp(`^${DNS1035_LABEL_FORMAT}$`);
const LABEL_KEY = new RegExp(`^${LABEL_KEY_FORMAT}$`);
const LABEL_VALUE = new RegExp(`^${LABEL_VALUE_FORMAT}$`);
const PORT_NAME_CHARSET = /^[-a-z0-9]+$/;
const PORT_NAME_LETTER = /[a-z]/;

const DNS1123_LABEL_MESSAGE =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_MESSAGE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_MESSAGE =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const LABEL_KEY_MESSAGE =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_MESSAGE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

/** Longest DNS-1123 label (and DNS-1035 label, and label name part or value). */
const DNS_LABEL_MAX_LENGTH = 63;
/** Longest DNS-1123 subdomain. */
const DNS_SUBDOMAIN_MAX_LENGTH = 253;
/** Longest IANA service name (container port names). */
const PORT_NAME_MAX_LENGTH = 15;

const encoder = new TextEncoder();

/**
 * The length of a string in UTF-8 bytes, as Go's len() counts it. An ASCII string (nearly every name) is as
 * long in bytes as in characters: encoding every name and label of a large folder was ~1.5% of `validate`.
 */
export function byteLength(value: string): number {
  for (let index = 0; index < value.length; index++) {
    if (value.charCodeAt(index) > 0x7f) {
      return encoder.encode(value).length;
    }
  }
  return value.length;
}

/** "must be no more than N characters" (names) or "… bytes" (label keys and values, since 1.35). */
function tooLong(max: number, unit: 'characters' | 'bytes'): string {
  return `must be no more than ${max} ${unit}`;
}

/** The API server's RegexError text: the message, examples, and the pattern. */
function regexError(message: string, format: string, ...examples: string[]): string {
  if (examples.length === 0) {
    return `${message} (regex used for validation is '${format}')`;
  }
  // Upstream joins examples as "'a', " + " or " + "'b', ", hence the double space; kept for identical text.
  return `${message} (e.g. ${examples.map((example) => `'${example}', `).join(' or ')}regex used for validation is '${format}')`;
}

/** IsDNS1123Label: at most 63 characters of [a-z0-9-], starting and ending alphanumeric. */
export function checkDns1123Label(value: string): string[] {
  const messages: string[] = [];
  if (byteLength(value) > DNS_LABEL_MAX_LENGTH) {
    messages.push(tooLong(DNS_LABEL_MAX_LENGTH, 'characters'));
  }
  if (!DNS1123_LABEL.test(value)) {
    messages.push(
      DNS1123_SUBDOMAIN.test(value)
        ? 'must not contain dots'
        : regexError(DNS1123_LABEL_MESSAGE, DNS1123_LABEL_FORMAT, 'my-name', '123-abc'),
    );
  }
  return messages;
}

/** IsDNS1123Subdomain: at most 253 characters, dot-separated DNS-1123 labels. */
export function checkDns1123Subdomain(value: string): string[] {
  const messages: string[] = [];
  if (byteLength(value) > DNS_SUBDOMAIN_MAX_LENGTH) {
    messages.push(tooLong(DNS_SUBDOMAIN_MAX_LENGTH, 'characters'));
  }
  if (!DNS1123_SUBDOMAIN.test(value)) {
    messages.push(regexError(DNS1123_SUBDOMAIN_MESSAGE, DNS1123_SUBDOMAIN_FORMAT, 'example.com'));
  }
  return messages;
}

/** IsDNS1035Label: like a DNS-1123 label, but starting with a letter. */
export function checkDns1035Label(value: string): string[] {
  const messages: string[] = [];
  if (byteLength(value) > DNS_LABEL_MAX_LENGTH) {
    messages.push(tooLong(DNS_LABEL_MAX_LENGTH, 'characters'));
  }
  if (!DNS1035_LABEL.test(value)) {
    messages.push(regexError(DNS1035_LABEL_MESSAGE, DNS1035_LABEL_FORMAT, 'my-name', 'abc-123'));
  }
  return messages;
}

/** IsValidPathSegmentName: the name only has to survive as one segment of a REST path. */
export function checkPathSegmentName(value: string, isPrefix = false): string[] {
  if (!isPrefix && (value === '.' || value === '..')) {
    return [`may not be '${value}'`];
  }
  return ['/', '%'].filter((part) => value.includes(part)).map((part) => `may not contain '${part}'`);
}

/** The DNS-1123 subdomain check applied to a label key's prefix (content.IsDNS1123Subdomain: "bytes"). */
function checkKeyPrefix(prefix: string): string[] {
  const messages: string[] = [];
  if (byteLength(prefix) > DNS_SUBDOMAIN_MAX_LENGTH) {
    messages.push(tooLong(DNS_SUBDOMAIN_MAX_LENGTH, 'bytes'));
  }
  if (!DNS1123_SUBDOMAIN.test(prefix)) {
    messages.push(regexError(DNS1123_SUBDOMAIN_MESSAGE, DNS1123_SUBDOMAIN_FORMAT, 'example.com'));
  }
  return messages;
}

/**
 * IsLabelKey (a "qualified name"): an optional DNS subdomain prefix and '/', then a name of at most 63
 * alphanumerics, '-', '_' or '.', starting and ending alphanumeric. Also the rule for annotation keys (which the
 * API server lowercases first) and label selector keys.
 */
export function checkLabelKey(value: string): string[] {
  const parts = value.split('/');
  const messages: string[] = [];
  let name: string;
  if (parts.length === 1) {
    name = parts[0] ?? '';
  } else if (parts.length === 2) {
    const prefix = parts[0] ?? '';
    name = parts[1] ?? '';
    if (prefix.length === 0) {
      messages.push('prefix part must be non-empty');
    } else {
      appendAll(
        messages,
        checkKeyPrefix(prefix).map((message) => `prefix part ${message}`),
      );
    }
  } else {
    return [
      `a valid label key ${regexError(LABEL_KEY_MESSAGE, LABEL_KEY_FORMAT, 'MyName', 'my.name', '123-abc')}` +
        " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    ];
  }
  if (name.length === 0) {
    messages.push('name part must be non-empty');
  } else if (byteLength(name) > DNS_LABEL_MAX_LENGTH) {
    messages.push(`name part ${tooLong(DNS_LABEL_MAX_LENGTH, 'bytes')}`);
  }
  if (!LABEL_KEY.test(name)) {
    messages.push(
      `name part ${regexError(LABEL_KEY_MESSAGE, LABEL_KEY_FORMAT, 'MyName', 'my.name', '123-abc')}`,
    );
  }
  return messages;
}

/** IsLabelValue: empty, or at most 63 alphanumerics, '-', '_' or '.', starting and ending alphanumeric. */
export function checkLabelValue(value: string): string[] {
  const messages: string[] = [];
  if (byteLength(value) > DNS_LABEL_MAX_LENGTH) {
    messages.push(tooLong(DNS_LABEL_MAX_LENGTH, 'bytes'));
  }
  if (!LABEL_VALUE.test(value)) {
    messages.push(regexError(LABEL_VALUE_MESSAGE, LABEL_VALUE_FORMAT, 'MyValue', 'my_value', '12345'));
  }
  return messages;
}

/**
 * IsValidPortName (an IANA_SVC_NAME): at most 15 characters of [-a-z0-9], at least one letter, no leading,
 * trailing or doubled '-'.
 */
export function checkPortName(value: string): string[] {
  const messages: string[] = [];
  if (byteLength(value) > PORT_NAME_MAX_LENGTH) {
    messages.push(tooLong(PORT_NAME_MAX_LENGTH, 'characters'));
  }
  if (!PORT_NAME_CHARSET.test(value)) {
    messages.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  }
  if (!PORT_NAME_LETTER.test(value)) {
    messages.push('must contain at least one letter (a-z)');
  }
  if (value.includes('--')) {
    messages.push('must not contain consecutive hyphens');
  }
  if (value.startsWith('-') || value.endsWith('-')) {
    messages.push('must not begin or end with a hyphen');
  }
  return messages;
}
