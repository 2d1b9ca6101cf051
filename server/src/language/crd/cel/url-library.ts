/**
 * The Kubernetes CEL URL library (staging/src/k8s.io/apiserver/pkg/cel/library/urls.go): url(), isURL() and the
 * URL getters, with Go's net/url rules as that library uses them: ParseRequestURI decides validity (an absolute
 * URI with a scheme, or an absolute path; no control characters or spaces before the path; a numeric port),
 * then the parts are read as url.Parse splits them (the fragment apart). getEscapedPath returns the path as
 * written when it is a valid escaping, else escapes it; getQuery unescapes keys and values ('+' is a space) and
 * keeps repeated keys as lists. Left out: Go's userinfo and IPv6 zone validation corners.
 */

/** A parsed URL as a CEL value (type URL). */
export class CelUrl {
  constructor(
    readonly scheme: string,
    /** host[:port] as written, IPv6 in brackets. */
    readonly host: string,
    readonly path: string,
    readonly rawQuery: string,
  ) {}
}

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):(.*)$/s;

/** ParseRequestURI followed by Parse, or the error text cel-go would give. */
export function parseRequestUri(text: string): CelUrl | string {
  const error = `URL parse error during conversion from string: parse ${JSON.stringify(text)}: invalid URI for request`;
  if (text === '' || [...text].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) {
    return error;
  }
  const withoutFragment = text.split('#')[0] ?? '';
  const scheme = SCHEME.exec(withoutFragment);
  let rest = scheme === null ? withoutFragment : (scheme[2] ?? '');
  if (scheme === null && !rest.startsWith('/')) {
    return error;
  }
  const queryAt = rest.indexOf('?');
  const rawQuery = queryAt < 0 ? '' : rest.slice(queryAt + 1);
  rest = queryAt < 0 ? rest : rest.slice(0, queryAt);
  let host = '';
  if (rest.startsWith('//') && (scheme !== null || !rest.startsWith('///'))) {
    const authorityEnd = rest.indexOf('/', 2);
    const authority = authorityEnd < 0 ? rest.slice(2) : rest.slice(2, authorityEnd);
    rest = authorityEnd < 0 ? '' : rest.slice(authorityEnd);
    host = authority.slice(authority.lastIndexOf('@') + 1);
    if (!isValidHost(host)) {
      return error;
    }
  } else if (scheme !== null && !rest.startsWith('/')) {
    // An opaque URI (mailto:x): ParseRequestURI accepts it; its path stays empty.
    return new CelUrl(scheme[1]?.toLowerCase() ?? '', '', '', rawQuery);
  }
  return new CelUrl(scheme?.[1]?.toLowerCase() ?? '', host, rest, rawQuery);
}

/** A host with an optional numeric port; IPv6 only in brackets; no spaces. */
function isValidHost(host: string): boolean {
  if (/[\s]/.test(host)) {
    return false;
  }
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    return close > 0 && /^(:\d*)?$/.test(host.slice(close + 1));
  }
  const colon = host.indexOf(':');
  return colon < 0 || /^\d*$/.test(host.slice(colon + 1));
}

/** url.Hostname(): the host without port and brackets. */
export function hostnameOf(url: CelUrl): string {
  if (url.host.startsWith('[')) {
    return url.host.slice(1, url.host.indexOf(']'));
  }
  const colon = url.host.indexOf(':');
  return colon < 0 ? url.host : url.host.slice(0, colon);
}

/** url.Port(): the digits after the host's last colon, or ''. */
export function portOf(url: CelUrl): string {
  const match = /:(\d*)$/.exec(url.host.startsWith('[') ? url.host.slice(url.host.indexOf(']')) : url.host);
  return match?.[1] ?? '';
}

/** Characters Go keeps unescaped in a path (shouldEscape with encodePath). */
const PATH_SAFE = /[A-Za-z0-9\-_.~$&+,/:;=@!'()*]/;

/** url.EscapedPath(). */
export function escapedPathOf(url: CelUrl): string {
  const isValidEscaping = /^(?:[A-Za-z0-9\-_.~$&+,/:;=@!'()*]|%[0-9A-Fa-f]{2})*$/.test(url.path);
  if (isValidEscaping) {
    return url.path;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.path);
  } catch {
    decoded = url.path;
  }
  return [...new TextEncoder().encode(decoded)]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return byte < 0x80 && PATH_SAFE.test(char)
        ? char
        : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/** url.Query(): keys to their values, unescaped; pairs that do not unescape (or hold ';') are dropped. */
export function queryOf(url: CelUrl): Record<string, string[]> {
  const query: Record<string, string[]> = {};
  for (const pair of url.rawQuery.split('&')) {
    if (pair === '' || pair.includes(';')) {
      continue;
    }
    const equals = pair.indexOf('=');
    const key = unescapeQuery(equals < 0 ? pair : pair.slice(0, equals));
    const value = unescapeQuery(equals < 0 ? '' : pair.slice(equals + 1));
    if (key !== undefined && value !== undefined) {
      (query[key] ??= []).push(value);
    }
  }
  return query;
}

function unescapeQuery(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}
