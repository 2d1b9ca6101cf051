/**
 * The plan's types are declared in protocol/plan.ts: the editor's Preview Apply panel shows the same plan the CLI
 * prints. The engine's plan modules import them from here.
 */
export type {
  FieldChange,
  PlanAction,
  PlanObject,
  PlanRollout,
  PlanProblem,
  PlanCapacityGroup,
  PlanCapacity,
  PlanVerdict,
  Plan,
} from '../../../../protocol/plan';
