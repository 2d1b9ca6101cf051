/**
 * What the Pod Security checks share (pod-security-admission's policy/helpers.go and visitor.go): the containers a
 * check visits, the "container(s) …" wording, and the relaxations of Windows pods and pods in a user namespace.
 */
import { isRecord } from '../../../model/objects';

/** A pod's JSON as read from a manifest: nothing is assumed about its shape. */
export type Json = Record<string, unknown>;

/** A failed check: its reason and detail, as CheckResult's ForbiddenReason and ForbiddenDetail. */
export interface CheckFailure {
  readonly reason: string;
  readonly detail: string;
}

/** One version of a check: the pod's metadata and spec in, a failure or null out. */
export type CheckPod = (metadata: Json, spec: Json) => CheckFailure | null;

/** An object field, or an empty object when it is missing or not an object. */
export const asJson = (value: unknown): Json => (isRecord(value) ? value : {});

/** Every container: init, regular and ephemeral, in that order (visitContainers). */
export const containersOf = (spec: Json): Json[] =>
  ['initContainers', 'containers', 'ephemeralContainers'].flatMap((key) =>
    Array.isArray(spec[key]) ? (spec[key] as unknown[]).filter(isRecord) : [],
  );

/** A container's or volume's name ("" when missing). */
export const nameOf = (item: Json): string => (typeof item['name'] === 'string' ? item['name'] : '');

/** A container's securityContext, or undefined when it has none. */
export const securityOf = (container: Json): Json | undefined =>
  isRecord(container['securityContext']) ? container['securityContext'] : undefined;

/** The pod's securityContext, or undefined. */
export const podSecurityOf = (spec: Json): Json | undefined =>
  isRecord(spec['securityContext']) ? spec['securityContext'] : undefined;

/** A pod's volumes that are objects. */
export const volumesOf = (spec: Json): Json[] =>
  Array.isArray(spec['volumes']) ? spec['volumes'].filter(isRecord) : [];

/** pluralize. */
export const pluralize = (singular: string, plural: string, count: number): string =>
  count === 1 ? singular : plural;

/** joinQuote: `"a", "b"`. */
export const joinQuote = (items: readonly string[]): string =>
  items.length === 0 ? '' : `"${items.join('", "')}"`;

/** `container "a"` or `containers "a", "b"`. */
export const containersText = (names: readonly string[]): string =>
  `${pluralize('container', 'containers', names.length)} ${joinQuote(names)}`;

/** sets.NewString(...).List(): unique and sorted. */
export const sortedUnique = (values: Iterable<string>): string[] => [...new Set(values)].sort();

/** spec.os.name is windows: the 1.25 versions of some restricted checks allow such pods. */
export const isWindowsPod = (spec: Json): boolean => asJson(spec['os'])['name'] === 'windows';

/** relaxPolicyForUserNamespacePod: hostUsers: false runs the pod in its own user namespace (1.35 versions). */
export const isUserNamespacePod = (spec: Json): boolean => spec['hostUsers'] === false;

/**
 * The shape of the checks that name who set a forbidden value: "pod", then the containers that set it explicitly,
 * joined with " and " ("pod and container \"a\" must not set …"), or null when nobody did.
 */
export function badSetters(podIsBad: boolean, badContainers: readonly string[]): string | null {
  const setters = [
    ...(podIsBad ? ['pod'] : []),
    ...(badContainers.length > 0 ? [containersText(badContainers)] : []),
  ];
  return setters.length === 0 ? null : setters.join(' and ');
}

/** A field as the text a check prints: strings as they are, numbers and booleans written out, anything else "". */
export const textOf = (value: unknown): string =>
  typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : '';
