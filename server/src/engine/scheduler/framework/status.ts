/**
 * Status: what a plugin phase returns, as fwk.Status upstream: a code, reasons and the plugin's name.
 * Success is an explicit value (SUCCESS), never null.
 * https://github.com/kubernetes/kubernetes/blob/master/staging/src/k8s.io/kube-scheduler/framework/interface.go
 */

/** Status codes, with kube-scheduler's names. */
type StatusCode = 'Success' | 'Error' | 'Unschedulable' | 'UnschedulableAndUnresolvable' | 'Skip';

/**
 * A reason: a stable code for machines ("NodeResourcesFit/InsufficientResource") and kube-scheduler's exact
 * message for people ("Insufficient cpu"). Reasons are defined beside the plugin that returns them.
 */
export interface Reason {
  readonly code: string;
  readonly message: string;
  /** What code needs from the reason (the resource that is short, …), so no one parses the message back. */
  readonly data?: Readonly<Record<string, string>>;
}

/** The outcome of one plugin phase. */
export interface Status {
  readonly code: StatusCode;
  readonly reasons: readonly Reason[];
  /** The plugin that returned it ('' for the framework's own statuses and for SUCCESS). */
  readonly plugin: string;
}

/** The one Success status; plugins return it when they pass. */
export const SUCCESS: Status = Object.freeze({ code: 'Success', reasons: Object.freeze([]), plugin: '' });

/** A status with a code, for a plugin, with reasons. */
export function newStatus(code: StatusCode, plugin: string, ...reasons: Reason[]): Status {
  return { code, reasons, plugin };
}

/** Unschedulable: the pod might fit later (e.g. after preemption frees room). */
export function unschedulable(plugin: string, ...reasons: Reason[]): Status {
  return { code: 'Unschedulable', reasons, plugin };
}

/** UnschedulableAndUnresolvable: preemption cannot help on this node. */
export function unresolvable(plugin: string, ...reasons: Reason[]): Status {
  return { code: 'UnschedulableAndUnresolvable', reasons, plugin };
}

/**
 * Skip statuses by plugin, frozen and shared as SUCCESS is: a Skip carries nothing but its plugin, and PreFilter
 * and PreScore plugins return one for most pods in every cycle. Plugin names are few (a registry's), so this stays
 * small for the life of the process.
 */
const SKIPS = new Map<string, Status>();

/** Skip: the plugin has nothing to do for this pod; its later phases are skipped for this cycle. */
export function skip(plugin: string): Status {
  let status = SKIPS.get(plugin);
  if (status === undefined) {
    status = Object.freeze({ code: 'Skip', reasons: Object.freeze([]), plugin });
    SKIPS.set(plugin, status);
  }
  return status;
}

/** An unexpected failure, with what happened as the reason. */
export function errorStatus(plugin: string, message: string): Status {
  return { code: 'Error', reasons: [{ code: 'Framework/Error', message }], plugin };
}

/** Whether the status is Success. */
export function isSuccess(status: Status): boolean {
  return status.code === 'Success';
}

/** Whether the status rejects the pod (Unschedulable or UnschedulableAndUnresolvable), as Status.IsRejected. */
export function isRejected(status: Status): boolean {
  return status.code === 'Unschedulable' || status.code === 'UnschedulableAndUnresolvable';
}

/** The status's message as kube-scheduler builds it: its reasons' messages joined by ", " (Status.Message). */
export function statusMessage(status: Status): string {
  return status.reasons.map((reason) => reason.message).join(', ');
}

/** The same status attributed to a plugin (Status.SetPlugin), unless it already names one. */
export function withPlugin(status: Status, plugin: string): Status {
  return status.plugin === plugin ? status : { ...status, plugin };
}
