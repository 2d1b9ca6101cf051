/**
 * The admission part of a hover on an object the API server refuses (or whose pods it refuses): which plugin, what
 * in the namespace it enforces, the API server's own error, and for a workload how many replicas never exist.
 * Every string from a manifest or the report is escaped.
 */
import type { RejectedObject } from '../../engine/admission/rejected';
import { escapeMarkdown, inlineCode } from '../assist/markdown';

/** What each plugin enforces, and where its policy lives in the namespace (Markdown; the data is escaped). */
const PLUGIN_POLICIES: Readonly<Record<string, (namespace: string, message: string) => string>> = {
  PodSecurity: (namespace, message) => {
    const policy = /violates PodSecurity "([^"]+)"/.exec(message)?.[1];
    return policy === undefined
      ? `The labels ${inlineCode('pod-security.kubernetes.io/*')} of Namespace ${escapeMarkdown(namespace)} are invalid.`
      : `Namespace ${escapeMarkdown(namespace)} enforces Pod Security **${escapeMarkdown(policy)}** (its label ${inlineCode('pod-security.kubernetes.io/enforce')}); every failing check is listed, and the pod is created only when none fails.`;
  },
  ResourceQuota: (namespace) =>
    `A ResourceQuota of namespace ${escapeMarkdown(namespace)} caps what its objects may use; the quota named below has no room left for this object.`,
  LimitRanger: (namespace) =>
    `A LimitRange of namespace ${escapeMarkdown(namespace)} bounds each container's, pod's or claim's requests and limits (and fills in its defaults).`,
  ServiceAccount: (namespace) =>
    `Every pod runs as a ServiceAccount of its namespace; the one it names does not exist in ${escapeMarkdown(namespace)}.`,
  Priority: () => 'A pod’s priorityClassName must name a PriorityClass of the cluster.',
  NamespaceLifecycle: (namespace) =>
    `Namespace ${escapeMarkdown(namespace)} does not exist in the cluster, nor in the apply.`,
};

/** Markdown for the refusals of one object (or of the pods of its template); empty when there are none. */
export function admissionHoverMarkdown(entries: readonly RejectedObject[]): string {
  const lines: string[] = [];
  for (const entry of entries) {
    const by = entry.plugin === '' ? 'kubectl' : entry.plugin;
    const what =
      entry.owner === undefined
        ? `${entry.kind} ${entry.name}`
        : `pods of ${entry.replicas?.workload.kind ?? entry.owner.kind} ${entry.replicas?.workload.name ?? entry.owner.name}`;
    lines.push(`**Admission** · ${escapeMarkdown(what)}: refused by ${escapeMarkdown(by)}`);
    lines.push('');
    const policy = PLUGIN_POLICIES[entry.plugin];
    if (policy !== undefined) {
      lines.push(policy(entry.namespace ?? 'default', entry.message));
      lines.push('');
    }
    if (entry.replicas !== undefined) {
      const { desired, created } = entry.replicas;
      lines.push(`${desired} desired · ${created} created · **${desired - created} refused**`);
      lines.push('');
    }
    lines.push(`> ${escapeMarkdown(entry.message)}`);
    lines.push('');
  }
  return lines.join('\n').trimEnd();
}
