/**
 * DefaultNormalizeScore from pkg/scheduler/framework/plugins/helper/normalize_score.go: scales scores so the
 * highest becomes maxPriority (integer division, as Go's int64), optionally reversed (max - score). When every
 * score is 0, scores stay 0, or all become maxPriority when reversed.
 * https://github.com/kubernetes/kubernetes/blob/master/pkg/scheduler/framework/plugins/helper/normalize_score.go
 */
import type { NodeScore } from '../../framework/plugin';
import { SUCCESS } from '../../framework/status';
import type { Status } from '../../framework/status';

/** Normalises scores in place to 0..maxPriority; returns SUCCESS. */
export function defaultNormalizeScore(maxPriority: number, reverse: boolean, scores: NodeScore[]): Status {
  let maxCount = 0;
  for (const entry of scores) {
    if (entry.score > maxCount) {
      maxCount = entry.score;
    }
  }
  if (maxCount === 0) {
    if (reverse) {
      for (const entry of scores) {
        entry.score = maxPriority;
      }
    }
    return SUCCESS;
  }
  for (const entry of scores) {
    const scaled = Math.trunc((maxPriority * entry.score) / maxCount);
    entry.score = reverse ? maxPriority - scaled : scaled;
  }
  return SUCCESS;
}

/** defaultNormalizeScore over a score column, with the same arithmetic. */
export function defaultNormalizeColumn(maxPriority: number, reverse: boolean, scores: Float64Array): Status {
  let maxCount = 0;
  for (let i = 0; i < scores.length; i++) {
    if ((scores[i] as number) > maxCount) {
      maxCount = scores[i] as number;
    }
  }
  if (maxCount === 0) {
    if (reverse) {
      scores.fill(maxPriority);
    }
    return SUCCESS;
  }
  for (let i = 0; i < scores.length; i++) {
    const scaled = Math.trunc((maxPriority * (scores[i] as number)) / maxCount);
    scores[i] = reverse ? maxPriority - scaled : scaled;
  }
  return SUCCESS;
}
