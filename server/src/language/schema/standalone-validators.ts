/**
 * The validators of one Kubernetes version compiled at build time: the build (esbuild.mjs) writes ajv's standalone
 * code of every kind of the default version's bundle (standalone-source.ts) into dist/, so a process validates
 * without compiling. Compiling Deployment, Service and ConfigMap took each validate thread 0.4–0.5 s of CPU; loading
 * the prebuilt module of every kind takes about 0.1 s. The code is what the store would compile itself (the same
 * ajv options, test/language/schema/standalone-validators.test.ts compares the errors), so results do not change.
 * The module is trusted only for the bundle it was built from: its version and the SHA-256 of the schema file
 * must match, else the store compiles as before.
 * https://ajv.js.org/standalone.html
 */
import type { FormatDefinition } from 'ajv';
import type { SchemaValidator } from './schema-store';
import { QUANTITY_FORMAT } from './schema-store';

/** The formats the standalone code reads, by name: the store's own. */
export type StandaloneFormats = Readonly<Record<string, FormatDefinition<string>>>;

/** What a prebuilt module exports (standalone-source.ts writes it). */
interface StandaloneModule {
  readonly kubernetesVersion: string;
  readonly schemaSha256: string;
  /** Runs the standalone code with the formats; returns the validators by definition name. */
  readonly load: (formats: StandaloneFormats) => unknown;
}

/** The prebuilt validators of one bundle, by definition name. */
export class StandaloneValidators {
  constructor(private readonly byDefinition: Readonly<Record<string, unknown>>) {}

  /** The validator of a definition, or undefined when the module has none (the store compiles it then). */
  validatorOf(definition: string): SchemaValidator | undefined {
    const validator = Object.hasOwn(this.byDefinition, definition)
      ? this.byDefinition[definition]
      : undefined;
    return typeof validator === 'function' ? (validator as SchemaValidator) : undefined;
  }
}

/**
 * The validators of a loaded prebuilt module, when it was built from this bundle (same version, same schema file
 * hash); null otherwise, or when the value is not such a module.
 */
export function readStandaloneValidators(
  moduleExports: unknown,
  expected: { readonly kubernetesVersion: string; readonly schemaSha256: string },
): StandaloneValidators | null {
  if (!isStandaloneModule(moduleExports)) {
    return null;
  }
  if (
    moduleExports.kubernetesVersion !== expected.kubernetesVersion ||
    moduleExports.schemaSha256 !== expected.schemaSha256
  ) {
    return null;
  }
  const validators = moduleExports.load({ quantity: QUANTITY_FORMAT });
  return typeof validators === 'object' && validators !== null
    ? new StandaloneValidators(validators as Record<string, unknown>)
    : null;
}

function isStandaloneModule(value: unknown): value is StandaloneModule {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const candidate = value as Partial<Record<keyof StandaloneModule, unknown>>;
  return (
    typeof candidate.kubernetesVersion === 'string' &&
    typeof candidate.schemaSha256 === 'string' &&
    typeof candidate.load === 'function'
  );
}
