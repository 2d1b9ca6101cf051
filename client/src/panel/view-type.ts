/**
 * The timeline panel's webview type: the key VS Code restores the panel by after a reload. package.json's
 * activation event `onWebviewPanel:kubeForesight.timeline` names it too (a test checks they agree).
 */
export const TIMELINE_VIEW_TYPE = 'kubeForesight.timeline';

/** The Preview Apply panel's webview type (activation event `onWebviewPanel:kubeForesight.plan`). */
export const PLAN_VIEW_TYPE = 'kubeForesight.plan';
