/**
 * invalid-container-image: the API server refuses a container without an image, and a Pod's container whose image
 * has leading or trailing whitespace. The OpenAPI schema marks `image` optional (so that configuration management
 * may fill it in), so only the validation code says so:
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/apis/core/validation/validation.go
 * - validateContainerCommon, run for containers, initContainers and ephemeralContainers of every pod spec (a Pod's,
 *   and a workload's template through ValidatePodTemplateSpec alike): `len(ctr.Image) == 0` is
 *   field.Required(image, ""), "spec.template.spec.containers[0].image: Required value".
 * - validateContainerOnlyForPod, for a Pod only: an image with leading or trailing whitespace is field.Invalid
 *   ("must not have leading or trailing whitespace"); templates keep accepting it (an image of " " is a
 *   placeholder some tools put in a template, as upstream's comment there says).
 * A non-string image is the schema's (schema-type). Not modelled: the image reference's own syntax, which only the
 * container runtime checks when it pulls.
 */
import type { ObjectRule } from '../analyzer';
import type { TextFinding } from '../findings';
import { rangeForValue } from '../yaml/node-at-path';
import { containerEntries } from './pod-containers';
import { findingAt, invalidValue, requiredValue } from './rule-support';
import { appendAll } from '../../../../protocol/collections';

/** field.Invalid's detail for an image with leading or trailing whitespace (validateContainerOnlyForPod). */
const WHITESPACE_DETAIL = 'must not have leading or trailing whitespace';

/** Reports containers without an image (every pod spec) and a Pod's images with surrounding whitespace. */
export const checkContainerImages: ObjectRule = (object) => {
  const findings: TextFinding[] = [];
  const isPod = object.kind === 'Pod' && object.apiVersion === 'v1';
  for (const entry of containerEntries(object)) {
    const imagePath = [...entry.path, 'image'];
    const image = entry.container['image'];
    if (image === undefined || image === null || image === '') {
      // Missing: shown on the container's name, else on its mapping; an empty string on the value itself.
      const range =
        image === ''
          ? rangeForValue(object.node, imagePath)
          : (rangeForValue(object.node, [...entry.path, 'name']) ?? rangeForValue(object.node, entry.path));
      appendAll(findings, findingAt(range, 'invalid-container-image', requiredValue(imagePath, '')));
    } else if (isPod && typeof image === 'string' && image !== image.trim()) {
      appendAll(
        findings,
        findingAt(
          rangeForValue(object.node, imagePath),
          'invalid-container-image',
          invalidValue(imagePath, image, WHITESPACE_DETAIL),
        ),
      );
    }
  }
  return findings;
};
