import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import {
  DEFAULT_SETTINGS,
  normalizeSettings,
  SETTINGS_SECTION,
  SUPPORTED_KUBERNETES_VERSIONS,
  withVersionSetFlags,
} from '../../protocol/settings';

interface ManifestProperty {
  default?: unknown;
  enum?: unknown[];
  description?: string;
}

const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
  contributes: {
    configuration: { properties: Record<string, ManifestProperty> };
    commands: { command: string; category?: string }[];
  };
};
const properties = manifest.contributes.configuration.properties;

/** Flattens the defaults into the dotted keys the manifest uses. */
function flatten(value: unknown, prefix: string, out: Record<string, unknown>): Record<string, unknown> {
  const isObjectSetting = properties[prefix] !== undefined;
  if (typeof value === 'object' && value !== null && !Array.isArray(value) && !isObjectSetting) {
    for (const [key, inner] of Object.entries(value)) {
      flatten(inner, `${prefix}.${key}`, out);
    }
  } else {
    out[prefix] = value;
  }
  return out;
}

describe('settings: protocol defaults and the manifest agree', () => {
  const defaults = flatten(DEFAULT_SETTINGS, SETTINGS_SECTION, {});
  test('every default in protocol/ is declared in package.json with the same value', () => {
    for (const [key, value] of Object.entries(defaults)) {
      assert.ok(properties[key], `${key} is declared in package.json`);
      assert.deepEqual(properties[key]?.default, value, `${key} has the same default`);
    }
  });
  test('package.json declares no setting that protocol/ does not know', () => {
    assert.deepEqual(Object.keys(properties).sort(), Object.keys(defaults).sort());
  });
  test('every setting has a description', () => {
    for (const [key, property] of Object.entries(properties)) {
      assert.ok((property.description ?? '').length > 10, `${key} has a description`);
    }
  });
  test('the kubernetesVersion enum lists exactly the shipped versions', () => {
    assert.deepEqual(properties[`${SETTINGS_SECTION}.kubernetesVersion`]?.enum, [
      ...SUPPORTED_KUBERNETES_VERSIONS,
    ]);
  });
  test('the shipped versions all have schemas', () => {
    for (const version of SUPPORTED_KUBERNETES_VERSIONS) {
      assert.ok(
        readFileSync(join(__dirname, '..', '..', 'schemas', 'kubernetes', `${version}.json`)).length > 0,
      );
    }
  });
  test('every command has the Kube Foresight category and the shared prefix', () => {
    for (const command of manifest.contributes.commands) {
      assert.equal(command.category, 'Kube Foresight');
      assert.ok(command.command.startsWith(`${SETTINGS_SECTION}.`));
    }
  });
});

describe('normalizeSettings', () => {
  const cases: { name: string; raw: unknown; expected: Partial<typeof DEFAULT_SETTINGS> }[] = [
    { name: 'garbage gives the defaults', raw: 'nonsense', expected: DEFAULT_SETTINGS },
    {
      name: 'an unknown version falls back to the default',
      raw: { kubernetesVersion: '1.2' },
      expected: { kubernetesVersion: '1.35' },
    },
    {
      name: 'a known version is kept',
      raw: { kubernetesVersion: '1.33' },
      expected: { kubernetesVersion: '1.33' },
    },
    {
      name: 'a negative size falls back to the default',
      raw: { maxFileSizeKB: -5 },
      expected: { maxFileSizeKB: 8192 },
    },
    {
      name: 'validation can be turned off',
      raw: { validation: { enable: false } },
      expected: { validation: { enable: false } },
    },
    {
      name: 'kustomize overlays can be a list of folders, with the binary and remote bases set',
      raw: {
        kustomize: { path: ' /usr/local/bin/kustomize ', allowRemote: true, overlays: ['overlays/prod', ''] },
      },
      expected: {
        kustomize: { path: '/usr/local/bin/kustomize', allowRemote: true, overlays: ['overlays/prod'] },
      },
    },
    {
      name: 'kustomize settings of the wrong type fall back to the defaults, each on its own',
      raw: { kustomize: { path: 7, allowRemote: 'yes', overlays: [1, 'a'] } },
      expected: { kustomize: { path: '', allowRemote: false, overlays: 'all' } },
    },
  ];
  for (const { name, raw, expected } of cases) {
    test(name, () => {
      const settings = normalizeSettings(raw);
      for (const [key, value] of Object.entries(expected)) {
        assert.deepEqual(settings[key as keyof typeof settings], value);
      }
    });
  }
});

describe('withVersionSetFlags: the client says whether kubernetesVersion is the user’s', () => {
  const items = [{ section: SETTINGS_SECTION, scopeUri: 'file:///a/x.yaml' }, { section: 'editor' }];
  test('each kubeForesight answer gets kubernetesVersionSet from inspect(); other sections pass unchanged', () => {
    const answers = [{ kubernetesVersion: '1.35' }, { tabSize: 2 }];
    const seen: (string | undefined)[] = [];
    const flagged = withVersionSetFlags(items, answers, (scopeUri) => {
      seen.push(scopeUri);
      return false;
    });
    assert.deepEqual(flagged, [{ kubernetesVersion: '1.35', kubernetesVersionSet: false }, { tabSize: 2 }]);
    assert.deepEqual(seen, ['file:///a/x.yaml']);
  });
  test('an answer that is not a list (an error) or an item that is not an object passes unchanged', () => {
    assert.equal(
      withVersionSetFlags(items, 'failed', () => true),
      'failed',
    );
    assert.deepEqual(
      withVersionSetFlags(items, [null, 3], () => true),
      [null, 3],
    );
  });
  test('normalizeSettings keeps the flag when it is a boolean, and leaves it out otherwise', () => {
    assert.equal(normalizeSettings({ kubernetesVersionSet: true }).isKubernetesVersionSet, true);
    assert.equal(normalizeSettings({ kubernetesVersionSet: false }).isKubernetesVersionSet, false);
    assert.equal('isKubernetesVersionSet' in normalizeSettings({ kubernetesVersionSet: 'yes' }), false);
  });
});
