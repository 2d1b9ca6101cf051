/**
 * The official YAML test suite's cases (data release 2022-01-17, ../shared/yaml-test-suite beside the project): one folder per
 * case, or numbered sub-folders, each with in.yaml, "===" (the name) and, for input a conforming parser must
 * reject, an "error" file.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Where the suite's data is. */
export const YAML_SUITE_DIRECTORY = join(__dirname, '..', '..', '..', 'shared', 'yaml-test-suite');

/** One case of the suite. */
export interface YamlSuiteCase {
  /** The folder, e.g. "2G84/01". */
  readonly id: string;
  readonly name: string;
  readonly text: string;
  /** Whether the input is not valid YAML. */
  readonly isError: boolean;
}

function readCase(id: string): YamlSuiteCase {
  const folder = join(YAML_SUITE_DIRECTORY, id);
  return {
    id,
    name: readFileSync(join(folder, '==='), 'utf8').trim(),
    text: readFileSync(join(folder, 'in.yaml'), 'utf8'),
    isError: existsSync(join(folder, 'error')),
  };
}

/** Every case, in folder order. */
export function loadYamlSuite(): YamlSuiteCase[] {
  const cases: YamlSuiteCase[] = [];
  for (const id of readdirSync(YAML_SUITE_DIRECTORY).sort()) {
    const folder = join(YAML_SUITE_DIRECTORY, id);
    if (!statSync(folder).isDirectory()) {
      continue;
    }
    if (existsSync(join(folder, 'in.yaml'))) {
      cases.push(readCase(id));
      continue;
    }
    for (const sub of readdirSync(folder).sort()) {
      if (existsSync(join(folder, sub, 'in.yaml'))) {
        cases.push(readCase(`${id}/${sub}`));
      }
    }
  }
  return cases;
}

/**
 * Error cases the yaml package (and so the extension) accepts, with the reason. Neither matters for a
 * Kubernetes manifest: both are about %YAML directives, which kubectl's own parser also ignores.
 */
export const ACCEPTED_ERROR_CASES: Readonly<Record<string, string>> = {
  '9MMA': 'a %YAML directive with no document after it: the yaml package reads an empty stream',
  SF5V: 'a repeated %YAML directive: the yaml package keeps the last one',
};

/**
 * Valid cases where the extension reports something short of an error, with the reason: the suite checks
 * parsing only, the extension also checks what kubectl would do with the data.
 */
export const WARNED_VALID_CASES: Readonly<Record<string, string>> = {
  '2JQS': 'two empty (null) keys in one mapping: valid syntax, but a duplicate key (a warning, not an error)',
};
