/**
 * The validation rules beyond the schema: what the API server checks in code rather than in its OpenAPI
 * documents. OBJECT_RULES look at one object at a time; checkServiceTargetPorts looks across the objects of the
 * analysed files.
 */
import type { ObjectRule } from '../analyzer';
import { checkCustomResourceDefinition } from '../crd/crd-definition-rule';
import { checkContainerImages } from './container-image';
import { checkDuplicateContainerNames } from './duplicate-container-name';
import { checkLabelSyntax } from './invalid-labels';
import { checkListMapDuplicates } from './list-map-duplicate';
import { checkObjectName } from './invalid-name';
import { checkPortNames } from './invalid-port-name';
import { checkNodeFieldSelectors } from './node-field-selector';
import { checkResourceQuantities } from './resource-quantities';
import { checkSelectorMatchesTemplate } from './selector-mismatch';

/** Every single-object rule, run on each object of a built-in kind after schema validation. */
export const OBJECT_RULES: readonly ObjectRule[] = [
  checkObjectName,
  checkLabelSyntax,
  checkSelectorMatchesTemplate,
  checkDuplicateContainerNames,
  checkListMapDuplicates,
  checkContainerImages,
  checkPortNames,
  checkResourceQuantities,
  checkNodeFieldSelectors,
  checkCustomResourceDefinition,
];

export { checkServiceTargetPorts, placeTargetPortProblems, serviceTargetPortProblems } from './target-port';
export type { TargetPortProblem } from './target-port';
export { checkNameFields, checkName, nameFormatOf } from './invalid-name';
export type { NameFormat } from './invalid-name';
export { checkObjectLabels } from './invalid-labels';
