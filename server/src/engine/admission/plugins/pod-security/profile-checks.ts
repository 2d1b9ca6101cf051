/**
 * The Pod Security checks of security profiles (AppArmor, SELinux, seccomp), baseline and restricted, as
 * pod-security-admission v0.35 words them (policy/check_appArmorProfile.go, check_seLinuxOptions.go,
 * check_seccompProfile_baseline.go, check_seccompProfile_restricted.go).
 */
import { isRecord } from '../../../model/objects';
import {
  asJson,
  badSetters,
  containersOf,
  containersText,
  joinQuote,
  nameOf,
  podSecurityOf,
  pluralize,
  securityOf,
  sortedUnique,
  textOf,
  type CheckPod,
  type Json,
} from './check-helpers';

const annotationsOf = (metadata: Json): [string, string][] =>
  Object.entries(asJson(metadata['annotations'])).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );

/** Go's %q of a plain string, as the checks print annotation values. */
const goQuote = (value: string): string => JSON.stringify(value);

/** appArmorProfile_1_0: the profile fields and the beta annotations. */
export const appArmorProfile: CheckPod = (metadata, spec) => {
  const allowedType = (profile: unknown): boolean =>
    isRecord(profile) && (profile['type'] === 'RuntimeDefault' || profile['type'] === 'Localhost');
  const typeOf = (profile: unknown): string => textOf(asJson(profile)['type']);
  const badValues: string[] = [];
  const podProfile = podSecurityOf(spec)?.['appArmorProfile'];
  const podIsBad = podProfile !== undefined && podProfile !== null && !allowedType(podProfile);
  if (podIsBad) {
    badValues.push(typeOf(podProfile));
  }
  const badContainers: string[] = [];
  for (const container of containersOf(spec)) {
    const profile = securityOf(container)?.['appArmorProfile'];
    if (profile !== undefined && profile !== null && !allowedType(profile)) {
      badContainers.push(nameOf(container));
      badValues.push(typeOf(profile));
    }
  }
  const annotations = annotationsOf(metadata)
    .filter(
      ([key, value]) =>
        key.startsWith('container.apparmor.security.beta.kubernetes.io/') &&
        !(value === '' || value === 'runtime/default' || value.startsWith('localhost/')),
    )
    .map(([key, value]) => `${key}=${goQuote(value)}`)
    .sort();
  const values = [...sortedUnique(badValues), ...annotations];
  const setters = [
    badSetters(podIsBad, badContainers),
    annotations.length > 0 ? pluralize('annotation', 'annotations', annotations.length) : null,
  ].filter((setter): setter is string => setter !== null);
  return setters.length === 0
    ? null
    : {
        reason: pluralize('forbidden AppArmor profile', 'forbidden AppArmor profiles', values.length),
        detail: `${setters.join(' and ')} must not set AppArmor profile type to ${joinQuote(values)}`,
      };
};

/** seLinuxOptions: only the container types, no user or role. */
export const seLinuxOptions =
  (allowedTypes: ReadonlySet<string>): CheckPod =>
  (_metadata, spec) => {
    const badTypes: string[] = [];
    let setUser = false;
    let setRole = false;
    const isValid = (options: unknown): boolean => {
      if (!isRecord(options)) {
        return true;
      }
      const type = typeof options['type'] === 'string' ? options['type'] : '';
      const user = typeof options['user'] === 'string' ? options['user'] : '';
      const role = typeof options['role'] === 'string' ? options['role'] : '';
      if (!allowedTypes.has(type)) {
        badTypes.push(type);
      }
      setUser ||= user !== '';
      setRole ||= role !== '';
      return allowedTypes.has(type) && user === '' && role === '';
    };
    const podIsBad = !isValid(podSecurityOf(spec)?.['seLinuxOptions']);
    const badContainers = containersOf(spec)
      .filter((container) => !isValid(securityOf(container)?.['seLinuxOptions']))
      .map(nameOf);
    const setters = badSetters(podIsBad, badContainers);
    if (setters === null) {
      return null;
    }
    const types = sortedUnique(badTypes);
    const data = [
      ...(types.length > 0 ? [`${pluralize('type', 'types', types.length)} ${joinQuote(types)}`] : []),
      ...(setUser ? ['user may not be set'] : []),
      ...(setRole ? ['role may not be set'] : []),
    ];
    return {
      reason: 'seLinuxOptions',
      detail: `${setters} set forbidden securityContext.seLinuxOptions: ${data.join('; ')}`,
    };
  };

/** The SELinux types baseline allows from 1.0. */
export const SELINUX_TYPES_1_0 = new Set(['', 'container_t', 'container_init_t', 'container_kvm_t']);
/** The SELinux types baseline allows from 1.31. */
export const SELINUX_TYPES_1_31 = new Set([...SELINUX_TYPES_1_0, 'container_engine_t']);

/** seccompProfileBaseline_1_0: before 1.19 the profile was an annotation. */
export const seccompAnnotations: CheckPod = (metadata, spec) => {
  const annotations = new Map(annotationsOf(metadata));
  const isValid = (value: string): boolean =>
    value === 'runtime/default' || value === 'docker/default' || value.startsWith('localhost/');
  const keys = [
    'seccomp.security.alpha.kubernetes.io/pod',
    ...containersOf(spec).map(
      (container) => `container.seccomp.security.alpha.kubernetes.io/${nameOf(container)}`,
    ),
  ];
  const forbidden = sortedUnique(
    keys
      .filter((key) => annotations.has(key) && !isValid(annotations.get(key) ?? ''))
      .map((key) => `${key}=${goQuote(annotations.get(key) ?? '')}`),
  );
  return forbidden.length === 0
    ? null
    : {
        reason: 'seccompProfile',
        detail: `forbidden ${pluralize('annotation', 'annotations', forbidden.length)} ${forbidden.join(', ')}`,
      };
};

/** A seccompProfile field's verdict: unset, allowed (RuntimeDefault, Localhost), or the bad type it sets. */
export function seccompVerdict(context: Json | undefined): 'unset' | 'good' | { readonly bad: string } {
  const profile = context?.['seccompProfile'];
  if (profile === undefined || profile === null) {
    return 'unset';
  }
  const type = textOf(asJson(profile)['type']);
  return type === 'RuntimeDefault' || type === 'Localhost' ? 'good' : { bad: type };
}

/** seccompProfileBaseline_1_19: an explicit profile must be RuntimeDefault or Localhost. */
export const seccompFields: CheckPod = (_metadata, spec) => {
  const badValues: string[] = [];
  const podVerdict = seccompVerdict(podSecurityOf(spec));
  if (typeof podVerdict === 'object') {
    badValues.push(podVerdict.bad);
  }
  const badContainers: string[] = [];
  for (const container of containersOf(spec)) {
    const verdict = seccompVerdict(securityOf(container));
    if (typeof verdict === 'object') {
      badContainers.push(nameOf(container));
      badValues.push(verdict.bad);
    }
  }
  const setters = badSetters(typeof podVerdict === 'object', badContainers);
  return setters === null
    ? null
    : {
        reason: 'seccompProfile',
        detail: `${setters} must not set securityContext.seccompProfile.type to ${joinQuote(sortedUnique(badValues))}`,
      };
};

/**
 * seccompProfileRestricted_1_19: every container must run under RuntimeDefault or Localhost, set on it or on the
 * pod; explicit bad values are named first, then the containers left unset.
 */
export const seccompRestricted: CheckPod = (metadata, spec) => {
  const explicit = seccompFields(metadata, spec);
  if (explicit !== null) {
    return explicit;
  }
  if (seccompVerdict(podSecurityOf(spec)) === 'good') {
    return null;
  }
  const unset = containersOf(spec)
    .filter((container) => seccompVerdict(securityOf(container)) === 'unset')
    .map(nameOf);
  return unset.length === 0
    ? null
    : {
        reason: 'seccompProfile',
        detail: `pod or ${containersText(unset)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"`,
      };
};
