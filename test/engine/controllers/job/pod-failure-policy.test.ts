import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type {
  ContainerExit,
  PodFailurePolicy,
  PolicyMatch,
} from '../../../../server/src/engine/controllers/job/pod-failure-policy';
import { matchPodFailurePolicy } from '../../../../server/src/engine/controllers/job/pod-failure-policy';

/** A failed pod default/mypod with these containers (and init containers) and conditions. */
function failedPod(
  containers: ContainerExit[],
  conditions: { type: string; status: string }[] = [],
  initContainers: ContainerExit[] = [],
) {
  return { namespace: 'default', name: 'mypod', containers, initContainers, conditions };
}

const exitCodes = (action: string, operator: string, values: number[]) => ({
  action,
  onExitCodes: { operator, values },
});
const disruption = (action: string, status = 'True') => ({
  action,
  onPodConditions: [{ type: 'DisruptionTarget', status }],
});

describe('matchPodFailurePolicy (pod_failure_policy_test.go TestMatchPodFailurePolicy)', () => {
  const cases: {
    name: string;
    policy: PodFailurePolicy | null;
    pod: ReturnType<typeof failedPod>;
    expected: PolicyMatch;
  }[] = [
    {
      name: 'unknown action for rule matching by exit codes - skip rule with unknown action',
      policy: { rules: [exitCodes('UnknownAction', 'In', [1, 2]), exitCodes('FailJob', 'In', [2, 3])] },
      pod: failedPod([{ name: 'main-container', exitCode: 2 }]),
      expected: {
        jobFailureMessage:
          'Container main-container for pod default/mypod failed with exit code 2 matching FailJob rule at index 1',
        countFailed: true,
        action: 'FailJob',
      },
    },
    {
      name: 'unknown action for rule matching by pod conditions - skip rule with unknown action',
      policy: { rules: [disruption('UnkonwnAction'), disruption('Ignore')] },
      pod: failedPod([], [{ type: 'DisruptionTarget', status: 'True' }]),
      expected: { jobFailureMessage: null, countFailed: false, action: 'Ignore' },
    },
    {
      name: 'unknown operator - rule with unknown action is skipped for onExitCodes',
      policy: { rules: [exitCodes('Ignore', 'UnknownOperator', [1, 2]), exitCodes('FailJob', 'In', [2, 3])] },
      pod: failedPod([{ name: 'main-container', exitCode: 2 }]),
      expected: {
        jobFailureMessage:
          'Container main-container for pod default/mypod failed with exit code 2 matching FailJob rule at index 1',
        countFailed: true,
        action: 'FailJob',
      },
    },
    {
      name: 'no policy rules',
      policy: null,
      pod: failedPod([{ name: '', exitCode: 2 }]),
      expected: { jobFailureMessage: null, countFailed: true, action: null },
    },
    {
      name: 'ignore rule matched for exit codes',
      policy: { rules: [exitCodes('Ignore', 'In', [1, 2, 3])] },
      pod: failedPod([{ name: '', exitCode: 2 }]),
      expected: { jobFailureMessage: null, countFailed: false, action: 'Ignore' },
    },
    {
      name: 'FailJob rule matched for exit codes',
      policy: { rules: [exitCodes('FailJob', 'In', [1, 2, 3])] },
      pod: failedPod([{ name: 'main-container', exitCode: 2 }]),
      expected: {
        jobFailureMessage:
          'Container main-container for pod default/mypod failed with exit code 2 matching FailJob rule at index 0',
        countFailed: true,
        action: 'FailJob',
      },
    },
    {
      name: 'successful containers are skipped by the rules',
      policy: { rules: [exitCodes('FailJob', 'NotIn', [111])] },
      pod: failedPod(
        [
          { name: 'main-container', exitCode: 111 },
          { name: 'suppport-container', exitCode: 0 },
        ],
        [],
        [{ name: 'init-container', exitCode: 0 }],
      ),
      expected: { jobFailureMessage: null, countFailed: true, action: null },
    },
    {
      name: 'FailIndex rule matched for exit codes; JobBackoffLimitPerIndex enabled',
      policy: { rules: [exitCodes('FailIndex', 'In', [1, 2, 3])] },
      pod: failedPod([{ name: '', exitCode: 2 }]),
      expected: { jobFailureMessage: null, countFailed: true, action: 'FailIndex' },
    },
    {
      name: 'pod failure policy with NotIn operator and value 0',
      policy: { rules: [exitCodes('FailJob', 'NotIn', [0])] },
      pod: failedPod([
        { name: 'main-container', exitCode: 1 },
        { name: 'suppport-container', exitCode: 0 },
      ]),
      expected: {
        jobFailureMessage:
          'Container main-container for pod default/mypod failed with exit code 1 matching FailJob rule at index 0',
        countFailed: true,
        action: 'FailJob',
      },
    },
    {
      name: 'second jobfail rule matched for exit codes',
      policy: { rules: [exitCodes('Count', 'In', [1, 2, 3]), exitCodes('FailJob', 'In', [4, 5, 6])] },
      pod: failedPod([{ name: 'main-container', exitCode: 6 }]),
      expected: {
        jobFailureMessage:
          'Container main-container for pod default/mypod failed with exit code 6 matching FailJob rule at index 1',
        countFailed: true,
        action: 'FailJob',
      },
    },
    {
      name: 'count rule matched for exit codes',
      policy: { rules: [exitCodes('Count', 'In', [1, 2, 3])] },
      pod: failedPod([
        { name: 'foo', exitCode: null },
        { name: 'bar', exitCode: 2 },
      ]),
      expected: { jobFailureMessage: null, countFailed: true, action: 'Count' },
    },
    {
      name: 'FailIndex rule matched for pod conditions; JobBackoffLimitPerIndex enabled',
      policy: { rules: [disruption('FailIndex')] },
      pod: failedPod([], [{ type: 'DisruptionTarget', status: 'True' }]),
      expected: { jobFailureMessage: null, countFailed: true, action: 'FailIndex' },
    },
    {
      name: 'ignore rule matched for pod conditions',
      policy: { rules: [disruption('Ignore')] },
      pod: failedPod([], [{ type: 'DisruptionTarget', status: 'True' }]),
      expected: { jobFailureMessage: null, countFailed: false, action: 'Ignore' },
    },
    {
      name: 'FailJob rule matched for pod conditions',
      policy: { rules: [disruption('FailJob')] },
      pod: failedPod([], [{ type: 'DisruptionTarget', status: 'True' }]),
      expected: {
        jobFailureMessage:
          'Pod default/mypod has condition DisruptionTarget matching FailJob rule at index 0',
        countFailed: true,
        action: 'FailJob',
      },
    },
    {
      name: 'no rule matched: a pod without the condition counts as usual',
      policy: { rules: [disruption('Ignore', 'False')] },
      pod: failedPod([], [{ type: 'DisruptionTarget', status: 'True' }]),
      expected: { jobFailureMessage: null, countFailed: true, action: null },
    },
  ];
  for (const { name, policy, pod, expected } of cases) {
    test(name, () => {
      assert.deepEqual(matchPodFailurePolicy(policy, pod), expected);
    });
  }
});
