/**
 * Stand-ins for the theme VS Code gives a webview: a body class (vscode-light, vscode-dark,
 * vscode-high-contrast) and --vscode-* variables on the root element. Values from VS Code's Light Modern, Dark
 * Modern and High Contrast themes, for the variables the panel reads.
 */
import type { Page } from 'playwright-core';

/** The themes the screenshots cover. */
export type ThemeName = 'light' | 'dark' | 'high-contrast';

const COMMON = {
  'font-family': 'system-ui, "Ubuntu", "Droid Sans", sans-serif',
  'font-size': '13px',
  'editor-font-family': '"Droid Sans Mono", "monospace", monospace',
};

const THEMES: Record<ThemeName, { readonly bodyClass: string; readonly variables: Record<string, string> }> =
  {
    light: {
      bodyClass: 'vscode-light',
      variables: {
        ...COMMON,
        foreground: '#3b3b3b',
        descriptionForeground: '#3b3b3b',
        'editor-background': '#ffffff',
        'sideBar-background': '#f8f8f8',
        'editorWidget-background': '#f8f8f8',
        'panel-border': '#e5e5e5',
        'widget-border': '#e5e5e5',
        focusBorder: '#005fb8',
        'button-background': '#005fb8',
        'button-foreground': '#ffffff',
        'button-hoverBackground': '#0258a8',
        'input-background': '#ffffff',
        'input-border': '#cecece',
        'dropdown-background': '#ffffff',
        'dropdown-border': '#cecece',
        'list-hoverBackground': '#f2f2f2',
        'list-activeSelectionBackground': '#e8e8e8',
        'list-activeSelectionForeground': '#000000',
        'textLink-foreground': '#005fb8',
        errorForeground: '#f85149',
        'toolbar-hoverBackground': 'rgba(184, 184, 184, 0.31)',
        'charts-blue': '#1a85ff',
        'charts-green': '#388a34',
        'charts-yellow': '#bf8803',
        'charts-orange': '#d18616',
        'charts-red': '#e51400',
        'charts-purple': '#652d90',
      },
    },
    dark: {
      bodyClass: 'vscode-dark',
      variables: {
        ...COMMON,
        foreground: '#cccccc',
        descriptionForeground: '#9d9d9d',
        'editor-background': '#1f1f1f',
        'sideBar-background': '#181818',
        'editorWidget-background': '#202020',
        'panel-border': '#2b2b2b',
        'widget-border': '#313131',
        focusBorder: '#0078d4',
        'button-background': '#0078d4',
        'button-foreground': '#ffffff',
        'button-hoverBackground': '#026ec1',
        'input-background': '#313131',
        'input-border': '#3c3c3c',
        'dropdown-background': '#313131',
        'dropdown-border': '#3c3c3c',
        'list-hoverBackground': '#2a2d2e',
        'list-activeSelectionBackground': '#04395e',
        'list-activeSelectionForeground': '#ffffff',
        'textLink-foreground': '#4daafc',
        errorForeground: '#f85149',
        'toolbar-hoverBackground': 'rgba(90, 93, 94, 0.31)',
        'charts-blue': '#3794ff',
        'charts-green': '#89d185',
        'charts-yellow': '#cca700',
        'charts-orange': '#d18616',
        'charts-red': '#f14c4c',
        'charts-purple': '#b180d7',
      },
    },
    'high-contrast': {
      bodyClass: 'vscode-high-contrast',
      variables: {
        ...COMMON,
        foreground: '#ffffff',
        descriptionForeground: '#ffffff',
        'editor-background': '#000000',
        'sideBar-background': '#000000',
        'editorWidget-background': '#0c141f',
        'panel-border': '#6fc3df',
        'widget-border': '#6fc3df',
        contrastBorder: '#6fc3df',
        focusBorder: '#f38518',
        'button-background': '#000000',
        'button-foreground': '#ffffff',
        'input-background': '#000000',
        'input-border': '#6fc3df',
        'dropdown-background': '#000000',
        'list-activeSelectionBackground': '#000000',
        'textLink-foreground': '#21a6ff',
        errorForeground: '#f48771',
        'charts-blue': '#3794ff',
        'charts-green': '#89d185',
        'charts-yellow': '#ffd700',
        'charts-orange': '#d18616',
        'charts-red': '#f48771',
        'charts-purple': '#b180d7',
      },
    },
  };

/** Applies a theme the way VS Code does: body class and CSS variables (through the CSSOM, which CSP allows). */
export async function applyTheme(page: Page, theme: ThemeName): Promise<void> {
  const { bodyClass, variables } = THEMES[theme];
  await page.evaluate(
    ({ bodyClass, variables }) => {
      document.body.classList.remove('vscode-light', 'vscode-dark', 'vscode-high-contrast');
      document.body.classList.add(bodyClass);
      const style = document.documentElement.style;
      for (const [name, value] of Object.entries(variables)) {
        style.setProperty(`--vscode-${name}`, value);
      }
    },
    { bodyClass, variables },
  );
}
