/**
 * Compiles one x-kubernetes-validations expression (a rule or a messageExpression) once, and says what the
 * evaluator needs to know before running it: whether it reads oldSelf (a transition rule), which functions it
 * calls that we do not implement, and a cost bound. The environment declares `self` and `oldSelf` as dyn and
 * enables optional types, as the API server's CRD environment does
 * (staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel/compilation.go).
 */
import { Environment } from '@marcbachmann/cel-js';
import type { ASTNode } from '@marcbachmann/cel-js';
import { registerKubernetesLibrary, supportedFunctionNames } from './kubernetes-library';

/** A compiled expression, or why it cannot be evaluated here. */
export type RuleProgram =
  | {
      readonly ok: true;
      /** Runs the expression with self (and oldSelf) bound. Throws on an evaluation error. */
      readonly run: (bindings: Record<string, unknown>) => unknown;
      /** Whether the expression reads oldSelf. */
      readonly usesOldSelf: boolean;
      /** How many nodes the expression's syntax tree has. */
      readonly size: number;
      /** How deeply comprehensions (all, exists, map, filter…) nest. */
      readonly loopDepth: number;
    }
  | { readonly ok: false; readonly reason: string };

/** Comprehension macros: each runs its body once per item. */
const LOOP_MACROS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);

/** How many compiled expressions are kept. */
const MAX_CACHED_PROGRAMS = 5000;

const environment = registerKubernetesLibrary(
  new Environment({
    unlistedVariablesAreDyn: false,
    enableOptionalTypes: true,
    homogeneousAggregateLiterals: false,
    limits: { maxAstNodes: 10000, maxDepth: 100 },
  }),
)
  .registerVariable('self', 'dyn')
  .registerVariable('oldSelf', 'dyn');
const supported = supportedFunctionNames(environment);
const programs = new Map<string, RuleProgram>();

/** The compiled form of an expression (cached by its text). */
export function compileRule(expression: string): RuleProgram {
  const cached = programs.get(expression);
  if (cached !== undefined) {
    return cached;
  }
  const program = compile(expression);
  if (programs.size >= MAX_CACHED_PROGRAMS) {
    programs.clear();
  }
  programs.set(expression, program);
  return program;
}

function compile(expression: string): RuleProgram {
  let parsed: ReturnType<Environment['parse']>;
  try {
    parsed = environment.parse(expression);
    const rewritten = rewriteForEvaluator(expression, parsed.ast);
    if (rewritten !== expression) {
      parsed = environment.parse(rewritten);
    }
  } catch (error: unknown) {
    return { ok: false, reason: `it does not parse here (${firstLine(error)})` };
  }
  const facts = inspect(parsed.ast);
  if (facts.unsupported.size > 0) {
    const names = [...facts.unsupported].sort().map((name) => `${name}()`);
    return { ok: false, reason: `it calls ${names.join(', ')}, which this evaluator does not implement` };
  }
  return {
    ok: true,
    run: (bindings): unknown => parsed(bindings) as unknown,
    usesOldSelf: facts.usesOldSelf,
    size: facts.size,
    loopDepth: facts.loopDepth,
  };
}

interface Facts {
  usesOldSelf: boolean;
  size: number;
  loopDepth: number;
  readonly unsupported: Set<string>;
}

/** Walks the syntax tree once. */
function inspect(root: ASTNode): Facts {
  const facts: Facts = { usesOldSelf: false, size: 0, loopDepth: 0, unsupported: new Set() };
  const visit = (node: unknown, depth: number): void => {
    if (Array.isArray(node)) {
      node.forEach((child) => visit(child, depth));
      return;
    }
    if (!isAstNode(node)) {
      return;
    }
    facts.size++;
    const args: unknown = node.args;
    if (node.op === 'id' && args === 'oldSelf') {
      facts.usesOldSelf = true;
    }
    if ((node.op === 'call' || node.op === 'rcall') && Array.isArray(args) && typeof args[0] === 'string') {
      const name = args[0];
      if (!supported.has(name) && !isNamespacedOptional(node)) {
        facts.unsupported.add(name);
      }
      const inner = LOOP_MACROS.has(name) ? depth + 1 : depth;
      facts.loopDepth = Math.max(facts.loopDepth, inner);
      visit(args.slice(1), inner);
      return;
    }
    visit(args, depth);
  };
  visit(root, 0);
  return facts;
}

/**
 * Rewrites, by source ranges, what cel-go reads differently from our evaluator, before parsing again:
 * - cel-go accepts has() on a field of any expression (`has(self.matches[0].path)`), ours only on field
 *   selections from a variable; on the JSON objects of a custom resource `has(e.f)` is `"f" in e`;
 * - matches() takes RE2 syntax with leading flags (`(?i)`), which JavaScript lacks: `x.matches(p)` becomes
 *   `x.re2Matches(p)` (kubernetes-library.ts).
 */
function rewriteForEvaluator(expression: string, root: ASTNode): string {
  const spans: { start: number; end: number; text: string }[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      node.forEach(visit);
      return;
    }
    if (!isAstNode(node)) {
      return;
    }
    const args: unknown = node.args;
    if (node.op === 'call' && Array.isArray(args) && args[0] === 'has' && Array.isArray(args[1])) {
      const selection: unknown = args[1][0];
      if (isAstNode(selection) && selection.op === '.' && Array.isArray(selection.args)) {
        const operand: unknown = selection.args[0];
        const field: unknown = selection.args[1];
        if (isAstNode(operand) && typeof field === 'string' && !isSelectionChain(operand)) {
          const operandText = expression.slice(operand.start, operand.end);
          spans.push({
            start: node.start,
            end: node.end,
            text: `(${JSON.stringify(field)} in (${operandText}))`,
          });
          return;
        }
      }
    }
    if (node.op === 'rcall' && Array.isArray(args) && args[0] === 'matches' && isAstNode(args[1])) {
      const at = expression.indexOf('matches', args[1].end);
      if (at >= 0) {
        spans.push({ start: at, end: at + 'matches'.length, text: 're2Matches' });
      }
    }
    visit(args);
  };
  visit(root);
  let out = expression;
  let limit = Infinity;
  for (const span of spans.sort((a, b) => b.start - a.start)) {
    if (span.end <= limit) {
      out = out.slice(0, span.start) + span.text + out.slice(span.end);
      limit = span.start;
    }
  }
  return out;
}

/** An identifier, or field selections from one (`self.a.b`): what our has() accepts. */
function isSelectionChain(node: ASTNode): boolean {
  if (node.op === 'id') {
    return true;
  }
  const args: unknown = node.args;
  return node.op === '.' && Array.isArray(args) && isAstNode(args[0]) && isSelectionChain(args[0]);
}

/** `optional.of(x)` and `optional.none()` parse as calls on an identifier named optional. */
function isNamespacedOptional(node: ASTNode): boolean {
  const args: unknown = node.args;
  if (!Array.isArray(args) || (args[0] !== 'of' && args[0] !== 'none' && args[0] !== 'ofNonZeroValue')) {
    return false;
  }
  const target: unknown = args[1];
  return isAstNode(target) && target.op === 'id' && target.args === 'optional';
}

function isAstNode(value: unknown): value is ASTNode {
  return typeof value === 'object' && value !== null && 'op' in value && 'args' in value;
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
