import type { OpenIdFace } from '../eid-providers/eid-provider.js';
import type { AcrMethod, OpenIdProvider } from '../eid-providers/eid-provider.registry.js';
import { amrOf, clientMayUse, loginMethodsFor } from './oidc-acr.js';

/** Providers as the registry hands them out: only their name and OpenID face matter here. */
const providerOf = (name: string, openId: OpenIdFace) => ({ name, openId }) as unknown as OpenIdProvider;
const appId = providerOf('appid', {
  displayName: 'AppID',
  acrValues: [
    { acr: 'urn:example:appid', device: 'either' },
    { acr: 'urn:example:appid:same-device', device: 'same-device' },
    { acr: 'urn:example:appid:qr', device: 'qr' },
  ],
  amr: () => ['appid'],
});
const cardId = providerOf('cardid', {
  displayName: 'CardID',
  acrValues: [{ acr: 'urn:example:cardid', device: 'either' }],
  amr: (e) => (e?.amr as string[]) ?? [],
});
const all = [appId, cardId];
const forAcr = (acr: string): AcrMethod | undefined => {
  const provider = all.find((p) => p.openId.acrValues.some((v) => v.acr === acr));
  return provider && { acr, provider, device: provider.openId.acrValues.find((v) => v.acr === acr)!.device };
};

describe(loginMethodsFor.name, () => {
  it.each([
    ['urn:example:appid:same-device', { provider: 'appid', device: 'same-device' }],
    ['urn:example:appid:qr', { provider: 'appid', device: 'qr' }],
    ['urn:example:appid', { provider: 'appid', device: 'either' }],
    ['urn:example:cardid', { provider: 'cardid', device: 'either' }],
  ])('should map %s to the provider that answers to it and its device', (acr, expected) => {
    expect(loginMethodsFor(acr, all, forAcr)).toEqual([{ acr, ...expected }]);
  });

  it('should keep only the requested values the client may use', () => {
    expect(loginMethodsFor('urn:example:cardid urn:example:appid:qr', [appId], forAcr)).toEqual([
      { acr: 'urn:example:appid:qr', provider: 'appid', device: 'qr' },
    ]);
  });

  it("should offer each requested provider once, in the client's order, by the first acr naming it", () => {
    expect(loginMethodsFor('urn:example:cardid urn:example:appid:qr urn:example:appid', all, forAcr)).toEqual([
      { acr: 'urn:example:cardid', provider: 'cardid', device: 'either' },
      { acr: 'urn:example:appid:qr', provider: 'appid', device: 'qr' },
    ]);
  });

  it("should offer every usable provider's first acr without acr_values", () => {
    expect(loginMethodsFor(undefined, [cardId, appId], forAcr)).toEqual([
      { acr: 'urn:example:cardid', provider: 'cardid', device: 'either' },
      { acr: 'urn:example:appid', provider: 'appid', device: 'either' },
    ]);
    expect(loginMethodsFor(undefined, [], forAcr)).toEqual([]);
  });

  it('should refuse unknown values and providers the client may not use', () => {
    expect(loginMethodsFor('urn:example:unknown', all, forAcr)).toEqual([]);
    expect(loginMethodsFor('urn:example:cardid', [appId], forAcr)).toEqual([]);
  });
});

describe(clientMayUse.name, () => {
  it("should keep every provider for a client without providers, else those it names in the client's order", () => {
    expect(clientMayUse({ providers: null }, all)).toEqual(all);
    expect(clientMayUse({ providers: ['cardid', 'appid'] }, all)).toEqual([cardId, appId]);
    expect(clientMayUse({ providers: ['cardid', 'gone'] }, [appId])).toEqual([]);
  });
});

describe(amrOf.name, () => {
  it("should state the provider's amr, or its upstream's from the evidence, and none when there is none", () => {
    expect(amrOf(appId, undefined)).toEqual(['appid']);
    expect(amrOf(cardId, { amr: ['mfa', 'hwk'] })).toEqual(['mfa', 'hwk']);
    expect(amrOf(cardId, {})).toBeUndefined();
  });
});
