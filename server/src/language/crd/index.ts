/**
 * CustomResourceDefinitions in the analysed files make their kinds known and validated: build the validator
 * from the objects of every analysed file and pass it as AnalysisContext.customKinds.
 */
export { buildCustomKindValidator } from './custom-kind-validator';
export type { CrdKindValidator } from './custom-kind-validator';
export { isCrdObject, readCrdDefinition } from './crd-definitions';
export type { CrdDefinition, CrdVersion } from './crd-definitions';
export { toAjvSchema } from './structural-schema';
