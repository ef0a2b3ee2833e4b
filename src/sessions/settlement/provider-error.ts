import { ProviderUnavailableError } from '../../eid-providers/eid-provider.js';

// Provider errors may quote request bodies; log the kind and message only, never the data.
export const describeProviderError = (error: unknown) =>
  error instanceof ProviderUnavailableError || error instanceof Error
    ? { type: error.name, message: error.message }
    : { type: typeof error };
