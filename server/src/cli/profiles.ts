/**
 * `foresight profiles [--output text|json]`: the cluster profiles `--profile NAME` takes (engine/model/load/profiles/),
 * each node group's machine type with its capacity, its allocatable, what the provider reserves and the published
 * formula it follows, and the sizes the cluster autoscaler keeps it within.
 */
import type { ClusterProfile, SourcedObject } from '../language/service';
import {
  allocatableOf,
  CLUSTER_PROFILES,
  findProfile,
  formatMilli,
  profileObjects,
} from '../language/service';
import type { CliIo } from './io';

/** The usage line of the profiles command. */
export const PROFILES_USAGE = 'usage: foresight profiles [--output text|json]';

/** The names of the profiles, for usage errors. */
export const PROFILE_NAMES: readonly string[] = CLUSTER_PROFILES.map((profile) => profile.name);

/** A profile's cluster for `simulate --profile`, or why the name is not one. */
export function profileCluster(
  name: string,
): { readonly objects: SourcedObject[]; readonly description: string } | { readonly error: string } {
  const profile = findProfile(name);
  if (profile === undefined) {
    return {
      error: `--profile "${name}" is not a profile; the profiles are ${PROFILE_NAMES.join(', ')} (foresight profiles lists them)`,
    };
  }
  return { objects: profileObjects(profile), description: `profile ${profile.name}` };
}

/** Runs the profiles command; resolves to the exit code. */
export function runProfiles(args: readonly string[], io: CliIo): Promise<number> {
  let output = 'text';
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--help' || arg === '-h') {
      io.stdout(`${PROFILES_USAGE}\n`);
      return Promise.resolve(0);
    }
    const value = arg.startsWith('--output=') ? arg.slice('--output='.length) : undefined;
    if (value !== undefined || arg === '--output' || arg === '-o') {
      output = value ?? args[++i] ?? '';
      if (output !== 'text' && output !== 'json') {
        io.stderr(`foresight profiles: --output must be text or json\n${PROFILES_USAGE}\n`);
        return Promise.resolve(2);
      }
      continue;
    }
    io.stderr(`foresight profiles: unknown argument ${arg}\n${PROFILES_USAGE}\n`);
    return Promise.resolve(2);
  }
  io.stdout(
    output === 'json'
      ? `${JSON.stringify(CLUSTER_PROFILES.map(describeProfile), null, 2)}\n`
      : formatProfiles(CLUSTER_PROFILES),
  );
  return Promise.resolve(0);
}

/** One node group of a profile as `foresight profiles` shows it. */
interface GroupDescription {
  readonly name: string;
  readonly machineType: string;
  readonly minSize: number;
  readonly maxSize: number;
  readonly capacity: { readonly cpu: string; readonly memory: string; readonly pods: number };
  readonly reserved: { readonly cpu: string; readonly memory: string; readonly evictionThreshold: string };
  readonly allocatable: { readonly cpu: string; readonly memory: string; readonly pods: number };
}

/** A profile as `foresight profiles --output json` gives it. */
interface ProfileDescription {
  readonly name: string;
  readonly title: string;
  readonly formula: { readonly provider: string; readonly summary: string; readonly source: string };
  readonly groups: readonly GroupDescription[];
}

/** The data of a profile: each group's machine, what is reserved and what is allocatable. */
export function describeProfile(profile: ClusterProfile): ProfileDescription {
  const { formula } = profile;
  return {
    name: profile.name,
    title: profile.title,
    formula: { provider: formula.provider, summary: formula.summary, source: formula.source },
    groups: profile.groups.map((group) => {
      const { machine } = group;
      const reserved = formula.reserve(machine);
      const allocatable = allocatableOf(machine, formula);
      return {
        name: group.name,
        machineType: machine.name,
        minSize: group.minSize,
        maxSize: group.maxSize,
        capacity: {
          cpu: formatMilli(machine.cpu * 1000),
          memory: mebibytes(machine.memoryMiB),
          pods: machine.maxPods,
        },
        reserved: {
          cpu: formatMilli(reserved.cpuMilli),
          memory: mebibytes(reserved.memoryMiB),
          evictionThreshold: mebibytes(reserved.evictionMiB),
        },
        allocatable: {
          cpu: formatMilli(allocatable.cpuMilli),
          memory: mebibytes(Math.round((allocatable.memoryKiB / 1024) * 10) / 10),
          pods: allocatable.pods,
        },
      };
    }),
  };
}

/** The text of `foresight profiles`. */
function formatProfiles(profiles: readonly ClusterProfile[]): string {
  const lines: string[] = [];
  for (const profile of profiles) {
    const described = describeProfile(profile);
    lines.push(`${described.name}: ${described.title}`);
    for (const group of described.groups) {
      const sizes =
        group.minSize === group.maxSize
          ? `${group.minSize} node${group.minSize === 1 ? '' : 's'}`
          : `${group.minSize}–${group.maxSize} nodes`;
      lines.push(
        `  ${group.name}: ${group.machineType}, ${sizes}; capacity ${group.capacity.cpu} cpu, ${group.capacity.memory} memory, ${group.capacity.pods} pods; reserved ${group.reserved.cpu} cpu, ${group.reserved.memory} memory + ${group.reserved.evictionThreshold} eviction threshold; allocatable ${group.allocatable.cpu} cpu, ${group.allocatable.memory} memory, ${group.allocatable.pods} pods`,
      );
    }
    lines.push(`  allocatable (${described.formula.provider}): ${described.formula.summary}`);
    lines.push(`  source: ${described.formula.source}`);
    lines.push('');
  }
  lines.push('Use one with: foresight simulate --profile NAME PATH...');
  return `${lines.join('\n')}\n`;
}

/** MiB as kubectl would print it: "16Gi", "2662.4Mi", "0". */
function mebibytes(amount: number): string {
  if (amount === 0) {
    return '0';
  }
  if (amount % 1024 === 0) {
    return `${amount / 1024}Gi`;
  }
  return `${Number.isInteger(amount) ? amount : amount.toFixed(1)}Mi`;
}
