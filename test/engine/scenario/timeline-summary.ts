/**
 * Runs a timeline fixture (test/fixtures/engine/timeline/<case>: cluster.yaml, optional manifests.yaml) through
 * simulate() and summarises what expected.txt pins: findings, the text of the timeline sections (rollout waves,
 * disruption budgets, drains), and the notable events (rollouts, drains, evictions, node changes, FailedScheduling).
 * Used by fixtures.test.ts and by update-timeline-fixtures.ts (the only way expected.txt files change).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TimelineEventType } from '../../../protocol/timeline';
import { parseObjects } from '../../support/raw-objects';
import { formatTimelineSections } from '../../../server/src/engine/scenario/report/format-timeline';
import type { Finding } from '../../../protocol/finding';
import { addressOf } from '../../support/finding-address';
import type { SimulationResult } from '../../../server/src/engine/simulate/simulate';
import { simulate } from '../../../server/src/engine/simulate/simulate';
import { appendAll } from '../../../protocol/collections';

/** The folder holding one directory per timeline scenario. */
export const TIMELINE_FIXTURES_DIR = join(__dirname, '..', '..', 'fixtures', 'engine', 'timeline');

/** Events the summary lists (pod lifecycle events are left to the determinism check). */
const NOTABLE: ReadonlySet<TimelineEventType> = new Set<TimelineEventType>([
  'PodUnschedulable',
  'PodEvicted',
  'RolloutStep',
  'RolloutComplete',
  'ProgressDeadlineExceeded',
  'ScaleChanged',
  'SuccessfulRescale',
  'FailedGetResourceMetric',
  'NodeCordoned',
  'NodeNotReady',
  'NodeTainted',
  'NodeUntainted',
  'NodeHasInsufficientMemory',
  'NodeHasSufficientMemory',
  'DrainStarted',
  'DrainCompleted',
  'DrainBlocked',
  'EvictionAllowed',
  'EvictionBlocked',
  'TriggeredScaleUp',
  'NotTriggerScaleUp',
  'ScaleDown',
  'ScaleDownFailed',
  'NodeRemoved',
  'ScenarioStep',
]);

/**
 * Cuts a FitError after its filter reasons: what follows is PostFilter's message (DynamicResources,
 * DefaultPreemption), pinned by those plugins' own tests rather than by every scenario.
 */
export function withoutPostFilter(text: string): string {
  return text.replace(/(\d+\/\d+ nodes are available: [^.]*\.)[^;\n]*/g, '$1');
}

/** Simulates one timeline fixture. */
export function simulateFixture(name: string): SimulationResult {
  const dir = join(TIMELINE_FIXTURES_DIR, name);
  const syntax: Finding[] = [];
  const read = (file: string) =>
    existsSync(join(dir, file)) ? parseObjects(readFileSync(join(dir, file), 'utf8'), file, syntax) : [];
  return simulate({
    cluster: read('cluster.yaml'),
    manifests: read('manifests.yaml'),
    clusterDescription: 'cluster.yaml',
    version: '1.35',
  });
}

/** The text an expected.txt holds. */
export function summariseTimeline(result: SimulationResult): string {
  const { report } = result;
  const lines: string[] = ['findings:'];
  for (const finding of report.findings.filter((entry) => entry.code !== 'plugin-not-modelled')) {
    lines.push(
      `  ${finding.severity} ${finding.code} ${addressOf(finding).document} ${addressOf(finding).path}: ${finding.message}`,
    );
  }
  appendAll(lines, formatTimelineSections(report));
  lines.push('', 'events:');
  for (const event of (report.events ?? []).filter((entry) => entry.time > 0 || NOTABLE.has(entry.type))) {
    if (!NOTABLE.has(event.type) && event.type !== 'NodeAdded') {
      continue;
    }
    const object = `${event.object.kind}/${event.object.namespace === undefined ? '' : `${event.object.namespace}/`}${event.object.name}`;
    lines.push(
      `  ${event.time}s ${event.type} ${object}${event.node === null ? '' : ` @${event.node}`}: ${event.message}`,
    );
  }
  const counts = new Map<string, number>();
  const reasons = new Map<string, number>();
  for (const event of report.events ?? []) {
    counts.set(event.type, (counts.get(event.type) ?? 0) + 1);
    if (event.reason !== undefined) {
      const key = `${event.reason} (${event.source?.component ?? ''})`;
      reasons.set(key, (reasons.get(key) ?? 0) + 1);
    }
  }
  const list = (map: Map<string, number>): string =>
    [...map]
      .sort()
      .map(([name, count]) => `${name} ${count}`)
      .join(', ');
  // The Kubernetes events of the run by reason and component: what `kubectl events` would list.
  lines.push('', `event counts: ${list(counts)}`, `kubernetes event reasons: ${list(reasons)}`);
  return `${withoutPostFilter(lines.join('\n'))}\n`;
}
