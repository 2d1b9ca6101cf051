import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mapArtifactPath, normalizeRepoUrl } from '../../server/src/files/gitops/source-folders';
import { globToRegExp } from '../../server/src/files/gitops/unit-files';

// The path arithmetic of GitOps units: repository URLs compared in one spelling, an ExternalArtifact's path mapped
// back through its ArtifactGenerator's copies, and Argo CD's directory globs (util/glob, gobwas: `*` crosses `/`).

describe('normalizeRepoUrl', () => {
  const cases: [string, string, string][] = [
    [
      'https with .git and without name one repository',
      'https://github.com/org/repo.git',
      'github.com/org/repo',
    ],
    ['scp-like ssh names it too', 'git@github.com:org/repo.git', 'github.com/org/repo'],
    ['ssh URL with a user and a trailing slash', 'ssh://git@github.com/Org/Repo/', 'github.com/org/repo'],
  ];
  for (const [name, url, expected] of cases) {
    test(name, () => assert.equal(normalizeRepoUrl(url), expected));
  }
});

describe('mapArtifactPath (flux2-kustomize-helm-example clusters/production/artifacts.yaml)', () => {
  const apps = [
    { from: '@monorepo/apps/base/**', to: '@artifact/base/' },
    { from: '@monorepo/apps/production/**', to: '@artifact/production/' },
  ];
  const infrastructure = [{ from: '@monorepo/infrastructure/**', to: '@artifact/' }];
  const cases: [string, string, readonly { from: string; to: string }[], string | undefined][] = [
    ['a path copied under its own name maps to its folder', './production', apps, 'apps/production'],
    ['a sub-folder of a copy maps below it', 'base/podinfo', apps, 'apps/base/podinfo'],
    [
      'a copy to the artifact root takes any path',
      './controllers',
      infrastructure,
      'infrastructure/controllers',
    ],
    ['a path no copy holds has no folder', './staging', apps, undefined],
  ];
  for (const [name, path, copies, expected] of cases) {
    test(name, () => assert.equal(mapArtifactPath(path, copies), expected));
  }
});

describe('globToRegExp (Argo CD directory include/exclude)', () => {
  const cases: [string, string, string, boolean][] = [
    ['* crosses folders, as gobwas without separators', '*.yaml', 'nested/web.yaml', true],
    ['{a,b} is an alternative', '{web.yaml,db.yaml}', 'db.yaml', true],
    ['an alternative not listed does not match', '{web.yaml,db.yaml}', 'cache.yaml', false],
    ['a dot is literal', 'web.yaml', 'webxyaml', false],
    ['? is one character', 'web?.yaml', 'web1.yaml', true],
  ];
  for (const [name, glob, path, expected] of cases) {
    test(name, () => assert.equal(globToRegExp(glob).test(path), expected));
  }
});
