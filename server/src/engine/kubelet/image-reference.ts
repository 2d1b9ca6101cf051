/**
 * Whether the kubelet can parse a container's image reference. Before pulling, kuberuntime's image manager
 * applies the default tag (pkg/kubelet/images/image_manager.go, EnsureImageExists → applyDefaultImageTag →
 * pkg/util/parsers ParseImageName), which parses the reference with github.com/distribution/reference's
 * ParseNormalizedNamed (v0.6, normalize.go, reference.go, regexp.go). A reference it refuses never starts: the
 * container waits with reason `InvalidImageName` and the message
 * `Failed to apply default image tag "X": couldn't parse image name "X": <the parser's error>`, and the kubelet
 * records an InspectFailed event.
 *
 * The grammar, in our words (regexp.go):
 *   reference := name [ ":" tag ] [ "@" digest ]
 *   name      := [ domain "/" ] path-component { "/" path-component }
 *   domain    := host [ ":" port ]  (host: DNS labels of letters, digits and "-", separated by ".", or [ipv6])
 *   path-component := lower-alphanumeric { separator lower-alphanumeric }  (separator: ".", "_", "__" or "-"+)
 *   tag       := word character, then up to 127 of word characters, "." and "-"
 *   digest    := algorithm ":" at least 32 hex digits
 * Familiar names are normalized first (splitDockerDomain): `nginx` is docker.io/library/nginx; the first part is a
 * domain only when it holds "." or ":", is `localhost`, or has upper case.
 *
 * Not modelled: images the API server already refuses (empty, or with leading or trailing whitespace in a Pod:
 * pkg/apis/core/validation), which never reach the kubelet.
 */

const ALPHANUMERIC = '[a-z0-9]+';
const SEPARATOR = '(?:[._]|__|[-]+)';
const DOMAIN_NAME_COMPONENT = '(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])';
const DOMAIN_NAME = `${DOMAIN_NAME_COMPONENT}(?:\\.${DOMAIN_NAME_COMPONENT})*`;
const IPV6_ADDRESS = '\\[(?:[a-fA-F0-9:]+)\\]';
const DOMAIN_AND_PORT = `(?:${DOMAIN_NAME}|${IPV6_ADDRESS})(?::[0-9]+)?`;
const PATH_COMPONENT = `${ALPHANUMERIC}(?:${SEPARATOR}${ALPHANUMERIC})*`;
const REMOTE_NAME = `${PATH_COMPONENT}(?:/${PATH_COMPONENT})*`;
const NAME = `(?:${DOMAIN_AND_PORT}/)?${REMOTE_NAME}`;
const TAG = '[\\w][\\w.-]{0,127}';
const DIGEST = '[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*[:][0-9A-Fa-f]{32,}';

const REFERENCE = new RegExp(`^(${NAME})(?::(${TAG}))?(?:@(${DIGEST}))?$`);
const ANCHORED_NAME = new RegExp(`^(?:(${DOMAIN_AND_PORT})/)?(${REMOTE_NAME})$`);
const IDENTIFIER = /^[a-f0-9]{64}$/;

/** The longest repository path (RepositoryNameTotalLengthMax). */
const REPOSITORY_PATH_MAX = 255;

/** Hex length of the digest algorithms the kubelet registers (go-digest: sha256, sha384, sha512). */
const DIGEST_HEX_LENGTH: Readonly<Record<string, number>> = { sha256: 64, sha384: 96, sha512: 128 };

/** The error ParseNormalizedNamed gives for a reference, or undefined when it parses. */
export function imageReferenceError(image: string): string | undefined {
  if (IDENTIFIER.test(image)) {
    return `invalid repository name (${image}), cannot specify 64-byte hexadecimal strings`;
  }
  const { domain, remainder } = splitDockerDomain(image);
  const colon = remainder.indexOf(':');
  const remote = colon < 0 ? remainder : remainder.slice(0, colon);
  if (remote.toLowerCase() !== remote) {
    return `invalid reference format: repository name (${remote}) must be lowercase`;
  }
  return parseError(`${domain}/${remainder}`);
}

/**
 * The kubelet's waiting message for a container whose image does not parse (the image manager's
 * `Failed to apply default image tag %q: %v` around ParseImageName's `couldn't parse image name %q: %v`),
 * or undefined when it parses.
 */
export function invalidImageNameMessage(image: string): string | undefined {
  const error = imageReferenceError(image);
  if (error === undefined) {
    return undefined;
  }
  const quoted = JSON.stringify(image);
  return `Failed to apply default image tag ${quoted}: couldn't parse image name ${quoted}: ${error}`;
}

/** Reference.Parse's error for a normalized reference, or undefined. */
function parseError(reference: string): string | undefined {
  const match = REFERENCE.exec(reference);
  if (match === null) {
    const lower = reference.toLowerCase();
    return lower !== reference && REFERENCE.test(lower)
      ? 'repository name must be lowercase'
      : 'invalid reference format';
  }
  const name = ANCHORED_NAME.exec(match[1] ?? '');
  const path = name === null ? (match[1] ?? '') : (name[2] ?? '');
  if (path.length > REPOSITORY_PATH_MAX) {
    return `repository name must not be more than ${REPOSITORY_PATH_MAX} characters`;
  }
  const digest = match[3];
  return digest === undefined ? undefined : digestError(digest);
}

/** go-digest's Digest.Validate of a digest the grammar accepted. */
function digestError(digest: string): string | undefined {
  const colon = digest.indexOf(':');
  const algorithm = digest.slice(0, colon);
  const encoded = digest.slice(colon + 1);
  const length = DIGEST_HEX_LENGTH[algorithm];
  if (length === undefined) {
    return 'unsupported digest algorithm';
  }
  if (encoded.length !== length) {
    return 'invalid checksum digest length';
  }
  return /^[a-f0-9]+$/.test(encoded) ? undefined : 'invalid checksum digest format';
}

/** splitDockerDomain: the domain part of a reference and the rest, Docker Hub's familiar names normalized. */
function splitDockerDomain(name: string): { domain: string; remainder: string } {
  const slash = name.indexOf('/');
  if (slash < 0) {
    return { domain: 'docker.io', remainder: `library/${name}` };
  }
  const first = name.slice(0, slash);
  const rest = name.slice(slash + 1);
  let domain: string;
  let remainder: string;
  if (first === 'localhost' || /[.:]/.test(first) || first.toLowerCase() !== first) {
    [domain, remainder] = first === 'index.docker.io' ? ['docker.io', rest] : [first, rest];
  } else {
    [domain, remainder] = ['docker.io', name];
  }
  if (domain === 'docker.io' && !remainder.includes('/')) {
    remainder = `library/${remainder}`;
  }
  return { domain, remainder };
}
