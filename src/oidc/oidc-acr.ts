import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';

/** How the login page shows a method: the QR, the app on this device, or both (docs/oidc.md, "acr values"). */
export type DeviceChoice = 'qr' | 'same-device' | 'either';

export interface LoginMethod {
  /** The acr the id token carries: the value that was asked for (an alias as itself). */
  acr: string;
  provider: string;
  device: DeviceChoice;
}

export const ACR = {
  bankid: 'urn:grn:authn:se:bankid',
  bankidSameDevice: 'urn:grn:authn:se:bankid:same-device',
  bankidAnotherDevice: 'urn:grn:authn:se:bankid:another-device',
  bankidQr: 'urn:grn:authn:se:bankid:qr',
  freja: 'urn:grn:authn:se:frejaid',
  simulator: 'urn:eidgw:simulator',
} as const;

// The names of the largest commercial broker, so a client migrates by changing its issuer.
const METHODS: Record<string, Omit<LoginMethod, 'acr'>> = {
  [ACR.bankid]: { provider: 'bankid', device: 'either' },
  [ACR.bankidSameDevice]: { provider: 'bankid', device: 'same-device' },
  [ACR.bankidAnotherDevice]: { provider: 'bankid', device: 'qr' },
  [ACR.bankidQr]: { provider: 'bankid', device: 'qr' },
  [ACR.freja]: { provider: 'freja', device: 'either' },
  [ACR.simulator]: { provider: 'simulator', device: 'either' },
};

export const ACR_VALUES: string[] = Object.keys(METHODS);

const DEFAULT_ACR: Record<string, string> = { bankid: ACR.bankid, freja: ACR.freja, simulator: ACR.simulator };

/** What each provider is called in `amr`. */
export const AMR: Record<string, string> = { bankid: 'bankid', freja: 'freja', simulator: 'simulator' };

/**
 * The method for an authorization request: the first of its acr_values (in the client's order of
 * preference) that the client may use; without acr_values the first provider it may use. Undefined
 * when none fits (the client then gets unmet_authentication_requirements).
 */
export function loginMethodFor(
  acrValues: string | undefined,
  usable: readonly string[],
  environment: ApiKeyEnvironment,
): LoginMethod | undefined {
  // The simulator never answers for a live client, whatever it asks.
  const allowed = usable.filter((provider) => provider !== 'simulator' || environment === 'test');
  const requested = (acrValues ?? '').split(' ').filter(Boolean);
  if (requested.length === 0) {
    const provider = allowed[0];
    return provider && DEFAULT_ACR[provider] ? { acr: DEFAULT_ACR[provider], provider, device: 'either' } : undefined;
  }
  for (const acr of requested) {
    const method = METHODS[acr];
    if (method && allowed.includes(method.provider)) return { acr, ...method };
  }
  return undefined;
}
