// Rules against spreading a collection into a call. Every spread element is one argument on the stack, and V8
// throws "RangeError: Maximum call stack size exceeded" past ~100,000 of them: a capture of the largest cluster
// Kubernetes supports (5,000 nodes, 150,000 pods) crashed `foresight simulate` in `Math.max(0, ...pods)`.
// eslint.config.mjs applies them everywhere; test/architecture/large-collections.test.ts lints snippets against
// them. protocol/collections.ts has maxOf, minOf, appendAll and assignAll, which take any number of elements.

/** Calls whose spread arguments grow with the input: reductions and appends. */
const SPREAD_CALLS = [
  "CallExpression[callee.object.name='Math'][callee.property.name=/^(max|min|hypot)$/]",
  'CallExpression[callee.property.name=/^(push|unshift|splice|concat)$/]',
  "CallExpression[callee.property.name='fromCharCode']",
  "CallExpression[callee.object.name='Object'][callee.property.name='assign']",
];

export const LARGE_COLLECTION_RULES = {
  'no-restricted-syntax': [
    'error',
    ...SPREAD_CALLS.map((selector) => ({
      selector: `${selector} > SpreadElement`,
      message:
        'a spread argument overflows the stack on a large collection: use maxOf, minOf, appendAll or assignAll (protocol/collections.ts)',
    })),
  ],
};
