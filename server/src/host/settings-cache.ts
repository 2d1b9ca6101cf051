/**
 * Settings per document: fetched from the client (workspace/configuration, scoped to the document), cached per
 * URI, cleared when the configuration changes. Never globals.
 */
import type { Connection } from 'vscode-languageserver';
import type { Settings } from '../../../protocol/settings';
import { DEFAULT_SETTINGS, normalizeSettings, SETTINGS_SECTION } from '../../../protocol/settings';

/** Per-document settings with a cache. */
export class SettingsCache {
  private readonly cache = new Map<string, Promise<Settings>>();
  private supportsConfiguration = false;

  constructor(private readonly connection: Connection) {}

  /** Records whether the client answers workspace/configuration requests. */
  setSupportsConfiguration(value: boolean): void {
    this.supportsConfiguration = value;
  }

  /** The settings that apply to a document. */
  get(uri: string): Promise<Settings> {
    if (!this.supportsConfiguration) {
      return Promise.resolve(DEFAULT_SETTINGS);
    }
    let settings = this.cache.get(uri);
    if (settings === undefined) {
      const requested = this.connection.workspace
        .getConfiguration({ scopeUri: uri, section: SETTINGS_SECTION })
        .then(
          (raw: unknown) => normalizeSettings(raw),
          (error: unknown) => {
            // A client that fails the request gets the defaults, as one that sends garbage does; the failure
            // is not cached, so the next validation asks again.
            if (this.cache.get(uri) === requested) {
              this.cache.delete(uri);
            }
            this.connection.console.warn(
              `Kube Foresight: the client did not send the settings of ${uri} (${error instanceof Error ? error.message : String(error)}); the defaults apply.`,
            );
            return DEFAULT_SETTINGS;
          },
        );
      settings = requested;
      this.cache.set(uri, settings);
    }
    return settings;
  }

  /** Forgets the settings of one document. */
  delete(uri: string): void {
    this.cache.delete(uri);
  }

  /** Forgets every cached setting. */
  clear(): void {
    this.cache.clear();
  }
}
