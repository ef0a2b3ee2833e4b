import { ApiKeyChanges } from './api-key-changes.js';

/**
 * The embedded database serves one process and cannot hold a listening connection beside the
 * others (pglite-socket serialises connections): changes are announced in process only. A CLI
 * beside the embedded server reaches its cache within the TTL (docs/security.md).
 */
export class LocalApiKeyChanges extends ApiKeyChanges {
  get live(): boolean {
    return true;
  }

  protected async send(apiKeyId: string): Promise<void> {
    this.changed(apiKeyId);
  }

  listen(): void {}
}
