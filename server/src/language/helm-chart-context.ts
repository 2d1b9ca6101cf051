/**
 * The analysis context of a file inside a Helm chart folder: the shared context plus the chart's name. Derived
 * contexts are kept per shared context and chart, so that the same file analysed again gets the same context
 * (the host compares contexts by identity) and the analyzer's cache key changes only with the chart.
 */
import type { AnalysisContext } from './analyzer';

const derived = new WeakMap<AnalysisContext, Map<string, AnalysisContext>>();

/** The context to analyse a file with, given the chart it belongs to (none: the context as it is). */
export function withHelmChart(context: AnalysisContext, chart: string | undefined): AnalysisContext {
  if (chart === undefined) {
    return context;
  }
  let byChart = derived.get(context);
  if (byChart === undefined) {
    byChart = new Map();
    derived.set(context, byChart);
  }
  let result = byChart.get(chart);
  if (result === undefined) {
    result = { ...context, key: `${context.key}|helm-chart:${chart}`, helmChart: chart };
    byChart.set(chart, result);
  }
  return result;
}
