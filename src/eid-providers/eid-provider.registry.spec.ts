import { DomainException } from '../common/problem-details/domain.exception.js';
import type { SessionsConfig } from '../config/sessions.config.js';
import type { EidChannel, EidOperation, EidProvider } from './eid-provider.js';
import { EidProviderRegistry } from './eid-provider.registry.js';

/** A provider that offers only app-channel authentication, on test keys (as a redirect-style e-ID would). */
const authOnly: EidProvider = {
  name: 'authonly',
  supports: (environment) => environment === 'test',
  offers: (operation: EidOperation, channel: EidChannel) => operation === 'auth' && channel === 'app',
  start: () => Promise.reject(new Error('not called')),
  collect: () => Promise.reject(new Error('not called')),
  cancel: () => Promise.reject(new Error('not called')),
  messages: {
    appName: 'AuthOnly',
    texts: { WAIT: { sv: 'Vänta.', en: 'Wait.' }, FAILED: { sv: 'Fel.', en: 'Failed.' } },
    pending: {},
    failed: {},
    fallback: { pending: 'WAIT', failed: 'FAILED' },
  },
};
const registry = new EidProviderRegistry([authOnly], { providers: ['authonly'] } as unknown as SessionsConfig);
const codeOf = (call: () => unknown): string | undefined => {
  try {
    call();
    return undefined;
  } catch (error) {
    return (error as DomainException).code;
  }
};

describe(EidProviderRegistry.name, () => {
  it('should hand out a provider for what it offers', () => {
    expect(registry.forStart('authonly', 'test', { operation: 'auth', channel: 'app' })).toBe(authOnly);
    expect(registry.forStart('authonly', 'test')).toBe(authOnly);
  });

  it.each([
    ['sign', 'app'],
    ['auth', 'phone'],
    ['sign', 'phone'],
  ] as const)('should answer operation_not_supported for %s on the %s channel', (operation, channel) => {
    expect(codeOf(() => registry.forStart('authonly', 'test', { operation, channel }))).toBe('operation_not_supported');
  });

  it('should answer unknown_provider before looking at the operation', () => {
    expect(codeOf(() => registry.forStart('nosuch', 'test', { operation: 'sign', channel: 'phone' }))).toBe('unknown_provider');
    expect(codeOf(() => registry.forStart('authonly', 'live', { operation: 'sign', channel: 'phone' }))).toBe('unknown_provider');
  });
});

describe(`${EidProviderRegistry.name} and PROVIDERS`, () => {
  const upstream = (name: string): EidProvider => ({ ...authOnly, name, kind: 'oidc' });
  const registryOf = (providers: string[]) =>
    new EidProviderRegistry([authOnly, upstream('nbid'), upstream('ftn')], { providers } as unknown as SessionsConfig);

  it('should enable a whole family by its kind, or one member by its name', () => {
    expect(['authonly', 'nbid', 'ftn'].map((name) => registryOf(['oidc']).isEnabled(name))).toEqual([false, true, true]);
    expect(['authonly', 'nbid', 'ftn'].map((name) => registryOf(['authonly', 'ftn']).isEnabled(name))).toEqual([true, false, true]);
  });

  it('should stop the start when PROVIDERS names no configured provider', () => {
    expect(() => registryOf(['authonly', 'mitid'])).toThrow('PROVIDERS names no configured provider: mitid');
  });
});
