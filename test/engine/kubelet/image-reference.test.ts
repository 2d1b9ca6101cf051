import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  imageReferenceError,
  invalidImageNameMessage,
} from '../../../server/src/engine/kubelet/image-reference';

// The kubelet's parse of an image reference: distribution/reference's ParseNormalizedNamed, as pkg/util/parsers
// ParseImageName calls it. Each row names the upstream test it follows.

const SHA = 'f'.repeat(64);
const LOWER_ERROR = (remote: string): string =>
  `invalid reference format: repository name (${remote}) must be lowercase`;

const CASES: readonly { image: string; error?: string; follows: string }[] = [
  // kubernetes pkg/util/parsers/parsers_test.go
  { image: 'root', follows: 'TestParseImageName' },
  { image: 'root:tag', follows: 'TestParseImageName' },
  { image: `root@sha256:${SHA}`, follows: 'TestParseImageName' },
  { image: 'user/repo:tag', follows: 'TestParseImageName' },
  { image: 'url:5000/repo:tag', follows: 'TestParseImageName' },
  { image: `url:5000/repo:latest@sha256:${SHA}`, follows: 'TestParseImageName' },
  { image: 'ROOT', error: LOWER_ERROR('library/ROOT'), follows: 'TestParseImageName' },
  { image: 'http://root', error: 'invalid reference format', follows: 'TestParseImageName' },
  {
    image: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    error:
      'invalid repository name (e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855), cannot specify 64-byte hexadecimal strings',
    follows: 'TestParseImageName',
  },
  // distribution/reference normalize_test.go TestValidateReferenceName
  { image: 'localhost/library/debian', follows: 'TestValidateReferenceName' },
  { image: 'LOCALDOMAIN/library/debian', follows: 'TestValidateReferenceName' },
  { image: 'index.docker.io/debian', follows: 'TestValidateReferenceName' },
  { image: '192.168.0.1', follows: 'TestValidateReferenceName' },
  { image: '192.168.0.1:8/debian', follows: 'TestValidateReferenceName' },
  { image: '[fc00:1:2:3:4:5:6:7]:5000/library/debian', follows: 'TestValidateReferenceName' },
  {
    image: `docker.io/1a3f5e7d9c1b3a5f7e9d1c3b5a7f9e1d3c5b7a9f1e3d5d7c9b1a3f5e7d9c1b3a`,
    follows: 'TestValidateReferenceName',
  },
  { image: 'Docker/docker', follows: 'TestValidateReferenceName' },
  { image: 'docker/Docker', error: LOWER_ERROR('docker/Docker'), follows: 'TestValidateReferenceName' },
  { image: '-docker', error: 'invalid reference format', follows: 'TestValidateReferenceName' },
  { image: 'docker///docker', error: 'invalid reference format', follows: 'TestValidateReferenceName' },
  { image: '[fc00::1]:5000', error: 'invalid reference format', follows: 'TestValidateReferenceName' },
  { image: 'fc00::1:5000/debian', error: 'invalid reference format', follows: 'TestValidateReferenceName' },
  {
    image: '[fe80::1%eth0]:5000/debian',
    error: 'invalid reference format',
    follows: 'TestValidateReferenceName',
  },
  // distribution/reference reference_test.go TestReferenceParse (errors that normalization leaves as they are)
  { image: ':justtag', error: 'invalid reference format', follows: 'TestReferenceParse' },
  {
    image: `repo@sha256:${'f'.repeat(34)}`,
    error: 'invalid checksum digest length',
    follows: 'TestReferenceParse',
  },
  {
    image: `validname@invaliddigest:${SHA}`,
    error: 'unsupported digest algorithm',
    follows: 'TestReferenceParse',
  },
  {
    image: 'test:5000/Uppercase/lowercase:tag',
    error: LOWER_ERROR('Uppercase/lowercase'),
    follows: 'TestReferenceParse',
  },
  { image: 'lowercase:Uppercase', follows: 'TestReferenceParse' },
  {
    image: `domain/${'a'.repeat(256)}:tag`,
    error: 'repository name must not be more than 255 characters',
    follows: 'TestReferenceParse',
  },
  { image: `example.com/${'a'.repeat(255)}:tag`, follows: 'TestReferenceParse' },
  { image: 'aa/asdf$$^/aa', error: 'invalid reference format', follows: 'TestReferenceParse' },
  { image: 'b.gcr.io/test.example.com/my-app:test.example.com', follows: 'TestReferenceParse' },
  { image: 'foo_bar.com:8080', follows: 'TestReferenceParse' },
  { image: '[2001:db8::1]:5000/repo:tag', follows: 'TestReferenceParse' },
  // The cases of issue 27: a ko build path, an upper-case repository, a space inside.
  {
    image: 'ko://github.com/tektoncd/operator/cmd/kubernetes/webhook',
    error: 'invalid reference format',
    follows: 'TestReferenceParse (a scheme, as http://root)',
  },
  { image: 'Nginx:Latest', error: LOWER_ERROR('library/Nginx'), follows: 'TestParseImageName (ROOT)' },
  { image: 'nginx latest', error: 'invalid reference format', follows: 'TestReferenceParse (aa/asdf$$^/aa)' },
];

describe('the image references the kubelet parses (ParseNormalizedNamed)', () => {
  for (const { image, error, follows } of CASES) {
    test(`${follows}: ${image.length > 60 ? `${image.slice(0, 57)}...` : image} ${error === undefined ? 'parses' : `is refused: ${error}`}`, () => {
      assert.equal(imageReferenceError(image), error);
    });
  }

  test("the waiting message is the image manager's around ParseImageName's", () => {
    assert.equal(
      invalidImageNameMessage('Nginx:Latest'),
      'Failed to apply default image tag "Nginx:Latest": couldn\'t parse image name "Nginx:Latest": invalid reference format: repository name (library/Nginx) must be lowercase',
    );
    assert.equal(invalidImageNameMessage('nginx:1.27'), undefined);
  });
});
