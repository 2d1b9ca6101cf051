/**
 * The command line of `foresight validate` and `foresight simulate`: one walk over the arguments and the options
 * both commands take, so a flag they share is read, checked and worded the same way in both.
 */
import type { CliIo } from './io';
import type { FailOn, OutputFormat } from './outcome';
import { failOnError, isFailOn, isOutputFormat, outputFormatError } from './outcome';

/** The options both commands take. */
export interface CommonOptions {
  recursive: boolean;
  output: OutputFormat;
  failOn: FailOn;
  readonly paths: string[];
  /** The kustomize or kubectl binary to render kustomizations with (--kustomize); found on PATH when undefined. */
  kustomize: string | undefined;
  allowRemote: boolean;
  /**
   * The namespace of the apply (-n/--namespace), enforced as `kubectl apply -n` enforces it; undefined: objects
   * without one are in `default`, as kubectl's context namespace would put them.
   */
  namespace: string | undefined;
}

/** The common options' defaults; `failOn` differs between the commands. */
export function commonDefaults(io: CliIo, failOn: FailOn): CommonOptions {
  return {
    recursive: false,
    output: 'text',
    failOn,
    paths: [],
    kustomize: io.env?.['FORESIGHT_KUSTOMIZE'],
    allowRemote: false,
    namespace: undefined,
  };
}

/**
 * What a command's own flag reader says of a flag: handled, not one of its flags (then the common flags are
 * tried), or what is wrong with its value.
 */
export type FlagOutcome = 'handled' | 'not-mine' | { readonly error: string };

/** Reads one flag's value: the text after `=`, or else the next argument. */
export type FlagValue = () => string | undefined;

/** Reads a common flag into `options`. */
function readCommonFlag(flag: string, value: FlagValue, options: CommonOptions): FlagOutcome {
  switch (flag) {
    case '-R':
    case '--recursive':
      options.recursive = true;
      return 'handled';
    case '--output':
    case '-o': {
      const output = value();
      if (!isOutputFormat(output)) {
        return { error: outputFormatError(output) };
      }
      options.output = output;
      return 'handled';
    }
    case '--fail-on': {
      const failOn = value();
      if (!isFailOn(failOn)) {
        return { error: failOnError(failOn) };
      }
      options.failOn = failOn;
      return 'handled';
    }
    case '--kustomize': {
      const binary = value();
      if (binary === undefined || binary === '') {
        return { error: '--kustomize needs the path of kustomize or kubectl' };
      }
      options.kustomize = binary;
      return 'handled';
    }
    case '-n':
    case '--namespace': {
      const namespace = value();
      if (namespace === undefined || namespace === '' || namespace.startsWith('-')) {
        return { error: `${flag} needs a namespace` };
      }
      options.namespace = namespace;
      return 'handled';
    }
    case '--kustomize-allow-remote':
      options.allowRemote = true;
      return 'handled';
    default:
      return 'not-mine';
  }
}

/**
 * Walks the arguments: `--flag=value` or `--flag value`, the command's own flags first, then the common ones;
 * anything else starting with `-` (but `-` alone, standard input) is an unknown option, the rest are paths.
 * Returns what is wrong with the command line, or undefined; `noPaths` is the message when no path is given.
 */
export function readCommandLine(
  args: readonly string[],
  options: CommonOptions,
  readOwnFlag: (flag: string, value: FlagValue) => FlagOutcome,
  noPaths: string,
): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const equals = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const flag = equals < 0 ? arg : arg.slice(0, equals);
    const inline = equals < 0 ? undefined : arg.slice(equals + 1);
    const value: FlagValue = () => inline ?? args[++i];
    let outcome = readOwnFlag(flag, value);
    if (outcome === 'not-mine') {
      outcome = readCommonFlag(flag, value, options);
    }
    if (typeof outcome === 'object') {
      return outcome.error;
    }
    if (outcome === 'handled') {
      continue;
    }
    if (flag.startsWith('-') && flag !== '-') {
      return `unknown option ${flag}`;
    }
    options.paths.push(arg);
  }
  return options.paths.length === 0 ? noPaths : undefined;
}
