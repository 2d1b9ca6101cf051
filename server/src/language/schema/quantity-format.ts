/**
 * The ajv format "quantity": the schema generator marks every resource.Quantity field with it, so a malformed
 * quantity is found wherever it appears (requests, limits, storage, overhead, …).
 */
import { parseQuantity } from '../../engine/model/quantity';

/** Whether a string is a valid Kubernetes quantity. */
export function isQuantityText(text: string): boolean {
  return parseQuantity(text).ok;
}
