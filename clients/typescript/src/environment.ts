import { EidGatewayError } from './errors.js';

export type Environment = 'test' | 'live';

// The service's key format (docs/api.md, "API keys"): `eidk_test_…` or `eidk_live_…`, the environment in the prefix.
const KEY_PREFIX = /^eidk_(test|live)_/;

/** Refuses, before any request, a key that is not an API key or names the other environment than the one chosen. */
export function checkKeyEnvironment(apiKey: string, environment: Environment): void {
  if (environment !== 'test' && environment !== 'live') {
    throw new EidGatewayError(`environment must be "test" or "live"`, { code: 'environment_mismatch' });
  }
  const named = KEY_PREFIX.exec(apiKey)?.[1];
  if (!named)
    throw new EidGatewayError('apiKey is not an eid-gateway API key (eidk_test_… or eidk_live_…)', { code: 'invalid_api_key_format' });
  if (named !== environment) {
    throw new EidGatewayError(`The API key is a ${named} key but the client was made for the ${environment} environment`, {
      code: 'environment_mismatch',
    });
  }
}
