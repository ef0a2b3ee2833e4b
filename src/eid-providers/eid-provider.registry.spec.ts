import { DomainException } from '../common/problem-details/domain.exception.js';
import type { SessionsConfig } from '../config/sessions.config.js';
import type { EidChannel, EidOperation, EidProvider, OpenIdFace } from './eid-provider.js';
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
    texts: {
      WAIT: { sv: 'Vänta.', en: 'Wait.', nb: 'Vent.', da: 'Vent.', fi: 'Odota.' },
      FAILED: { sv: 'Fel.', en: 'Failed.', nb: 'Feil.', da: 'Fejl.', fi: 'Virhe.' },
    },
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

describe(`${EidProviderRegistry.name}: the OpenID face`, () => {
  const face = (acr: string, extra: Partial<OpenIdFace> = {}): OpenIdFace => ({
    displayName: acr,
    acrValues: [
      { acr, device: 'either' },
      { acr: `${acr}:qr`, device: 'qr' },
    ],
    amr: () => [acr],
    ...extra,
  });
  const phone: EidProvider = {
    ...authOnly,
    name: 'phoneid',
    supports: () => true,
    offers: () => true,
    openId: face('urn:example:phoneid', { ciba: { acr: 'urn:example:phoneid', channel: 'phone' } }),
  };
  const app: EidProvider = { ...authOnly, openId: face('urn:example:authonly') };
  const faceless: EidProvider = { ...authOnly, name: 'faceless' };
  const registryOf = (providers: EidProvider[], enabled = providers.map((p) => p.name)) =>
    new EidProviderRegistry(providers, { providers: enabled } as unknown as SessionsConfig);

  it('should find the enabled provider that answers to an acr, with its device, for the environments it supports', () => {
    const registry = registryOf([phone, app, faceless]);
    expect(registry.forAcr('urn:example:authonly:qr', 'test')).toEqual({ acr: 'urn:example:authonly:qr', provider: app, device: 'qr' });
    expect(registry.forAcr('urn:example:authonly', 'live')).toBeUndefined();
    expect(registry.forAcr('urn:example:unknown', 'test')).toBeUndefined();
    expect(registryOf([phone, app], ['phoneid']).forAcr('urn:example:authonly', 'test')).toBeUndefined();
  });

  it('should list the methods for an environment and operation, and the CIBA ones, in registration order', () => {
    const registry = registryOf([app, phone, faceless]);
    expect(registry.openIdMethods('test', 'auth')).toEqual([app, phone]);
    expect(registry.openIdMethods('test', 'sign')).toEqual([phone]);
    expect(registry.openIdMethods('live', 'auth')).toEqual([phone]);
    expect(registry.cibaMethods('test')).toEqual([phone]);
  });

  it("should publish every registered provider's acr values, enabled or not", () => {
    expect(registryOf([app, phone], ['phoneid']).acrValues()).toEqual([
      'urn:example:authonly',
      'urn:example:authonly:qr',
      'urn:example:phoneid',
      'urn:example:phoneid:qr',
    ]);
  });

  it('should stop the start when two providers answer to one acr', () => {
    const twin: EidProvider = { ...app, name: 'twin' };
    expect(() => registryOf([app, twin])).toThrow('The acr value urn:example:authonly is claimed by both authonly and twin');
  });

  it('should offer the SAML front the providers whose face declares a requested authentication context', () => {
    const face = (samlAuthnContexts?: string[]): OpenIdFace => ({
      displayName: 'Test e-ID',
      acrValues: [],
      amr: () => [],
      samlAuthnContexts,
    });
    const loa3 = { ...authOnly, name: 'loa3', openId: face(['urn:loa3', 'urn:loa2']) };
    const loa2 = { ...authOnly, name: 'loa2', openId: face(['urn:loa2']) };
    const none = { ...authOnly, name: 'none', openId: face() };
    const saml = new EidProviderRegistry([none, loa2, loa3], { providers: ['none', 'loa2', 'loa3'] } as unknown as SessionsConfig);
    expect(saml.samlMethods('test', 'auth', ['urn:loa3']).map((m) => [m.provider.name, m.authnContext])).toEqual([['loa3', 'urn:loa3']]);
    expect(saml.samlMethods('test', 'auth', ['urn:loa4', 'urn:loa2']).map((m) => m.provider.name)).toEqual(['loa2', 'loa3']);
    expect(saml.samlMethods('test', 'auth', []).map((m) => [m.provider.name, m.authnContext])).toEqual([
      ['loa2', 'urn:loa2'],
      ['loa3', 'urn:loa3'],
    ]);
    expect(saml.samlMethods('test', 'sign', ['urn:loa3'])).toEqual([]);
    expect(saml.samlMethods('live', 'auth', ['urn:loa3'])).toEqual([]);
  });
});
