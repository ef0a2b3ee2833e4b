import { Inject, Injectable } from '@nestjs/common';
import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { sessionsConfig, type SessionsConfig } from '../config/sessions.config.js';
import type { EvidenceProfile } from './eid-provider.js';
import type { AcrDevice, EidChannel, EidOperation, EidProvider, IdCardFace, OpenIdFace } from './eid-provider.js';

export const EID_PROVIDERS = Symbol('EID_PROVIDERS');

/** A provider the OpenID fronts may offer: it has an OpenID face (docs/providers.md, "The OpenID face"). */
export type OpenIdProvider = EidProvider & { readonly openId: OpenIdFace };

/** What an acr asks for: the provider that answers to it, and the device the person uses. */
export interface AcrMethod {
  acr: string;
  provider: OpenIdProvider;
  device: AcrDevice;
}

/** A provider the SAML front offers, and the AuthnContextClassRef its login will carry. */
export interface SamlMethod {
  provider: OpenIdProvider;
  authnContext: string;
}

const hasOpenIdFace = (provider: EidProvider): provider is OpenIdProvider => provider.openId !== undefined;

/** The providers this deployment enables (PROVIDERS), by name. */
@Injectable()
export class EidProviderRegistry {
  private readonly byName: Map<string, EidProvider>;

  constructor(
    @Inject(EID_PROVIDERS) private readonly providers: EidProvider[],
    @Inject(sessionsConfig.KEY) config: SessionsConfig,
  ) {
    const enabled = new Set<string>(config.providers);
    const isEnabled = (p: EidProvider) => enabled.has(p.name) || (p.kind !== undefined && enabled.has(p.kind));
    this.byName = new Map(providers.filter(isEnabled).map((p) => [p.name, p]));
    // PROVIDERS names providers configured at start (the upstreams are), so the check is here, not in the schema.
    const known = new Set(providers.flatMap((p) => [p.name, ...(p.kind ? [p.kind] : [])]));
    const unknown = config.providers.filter((name) => !known.has(name));
    if (unknown.length) throw new Error(`PROVIDERS names no configured provider: ${unknown.join(', ')}`);
    assertAcrValuesUnique(providers);
    for (const provider of providers.filter(hasOpenIdFace)) {
      // A static QR is made from the order itself: a same-device session could not withhold it (docs/providers.md).
      if (provider.qr?.kind === 'static' && provider.openId.acrValues.some((v) => v.device === 'same-device'))
        throw new Error(`The provider ${provider.name} has a static QR and so cannot offer a same-device acr`);
    }
  }

  /** The enabled provider that answers to an acr on the OpenID fronts for keys of this environment; undefined: none. */
  forAcr(acr: string, environment: ApiKeyEnvironment): AcrMethod | undefined {
    for (const provider of this.openIdProviders(environment)) {
      const value = provider.openId.acrValues.find((v) => v.acr === acr);
      if (value) return { acr, provider, device: value.device };
    }
    return undefined;
  }

  /**
   * The enabled providers the OpenID login offers keys of this environment for an operation (on the app
   * channel: the person's browser is at the login page), in registration order, the preferred first.
   */
  openIdMethods(environment: ApiKeyEnvironment, operation: EidOperation): OpenIdProvider[] {
    return this.openIdProviders(environment).filter((provider) => provider.offers(operation, 'app'));
  }

  /**
   * The enabled providers the SAML front may use for keys of this environment and an operation, the
   * preferred first, with the authentication context each meets: the first of `requested` it declares,
   * or its default when the request names none (docs/saml.md, "Authentication contexts").
   */
  samlMethods(environment: ApiKeyEnvironment, operation: EidOperation, requested: readonly string[]): SamlMethod[] {
    return this.openIdMethods(environment, operation).flatMap((provider) => {
      const declared = provider.openId.samlAuthnContexts ?? [];
      const authnContext = requested.length ? requested.find((context) => declared.includes(context)) : declared[0];
      return authnContext ? [{ provider, authnContext }] : [];
    });
  }

  /** The enabled providers CIBA reaches for keys of this environment, in registration order. */
  cibaMethods(environment: ApiKeyEnvironment): OpenIdProvider[] {
    return this.openIdProviders(environment).filter((provider) => provider.openId.ciba !== undefined);
  }

  /** Every acr value a registered provider answers to, enabled or not (the OpenID discovery document's list). */
  acrValues(): string[] {
    const values = this.providers.filter(hasOpenIdFace).flatMap((provider) => provider.openId.acrValues.map((v) => v.acr));
    return [...new Set(values)];
  }

  /** Every business claim name an enabled provider may deliver (the OpenID front's `eidgw:business` scope). */
  businessClaims(): string[] {
    return [...new Set([...this.byName.values()].flatMap((provider) => provider.openId?.businessClaims ?? []))];
  }

  private openIdProviders(environment: ApiKeyEnvironment): OpenIdProvider[] {
    return [...this.byName.values()].filter(hasOpenIdFace).filter((provider) => provider.supports(environment));
  }

  /**
   * For a new session: unknown, disabled, or not for this key's environment → 404 unknown_provider;
   * a provider without this operation or channel → 404 operation_not_supported (docs/api.md).
   */
  forStart(
    name: string,
    environment: ApiKeyEnvironment,
    kind: { operation: EidOperation; channel: EidChannel } = { operation: 'auth', channel: 'app' },
  ): EidProvider {
    const provider = this.byName.get(name);
    if (!provider || !provider.supports(environment)) {
      throw new DomainException('unknown_provider', `No e-ID provider of that name is available to ${environment} keys.`);
    }
    if (!provider.offers(kind.operation, kind.channel)) {
      throw new DomainException(
        'operation_not_supported',
        `The provider ${name} does not offer ${kind.operation} on the ${kind.channel} channel.`,
      );
    }
    return provider;
  }

  /** For an ID card verification (docs/idcard.md): a provider of this environment with an ID card face, else 404 unknown_provider. */
  forIdCard(name: string, environment: ApiKeyEnvironment): EidProvider & { idCard: IdCardFace } {
    const provider = this.byName.get(name);
    if (!provider?.idCard || !provider.supports(environment)) {
      throw new DomainException('unknown_provider', `No e-ID provider of that name verifies ID cards for ${environment} keys.`);
    }
    return provider as EidProvider & { idCard: IdCardFace };
  }

  /** The evidence profile of a session's kind: an ID card's is its provider's ID card face's (docs/idcard.md). */
  evidenceOf(name: string, operation: EidOperation): EvidenceProfile | undefined {
    const provider = this.profileOf(name);
    return operation === 'idcard' ? provider?.idCard?.evidence : provider?.evidence;
  }

  /** For an existing session; null when the provider has since been disabled. */
  find(name: string): EidProvider | null {
    return this.byName.get(name) ?? null;
  }

  /**
   * For what an existing session shows (its QR, its words), even when its provider has since been
   * disabled: the profile does not need the provider to be reachable.
   */
  profileOf(name: string): EidProvider | null {
    return this.byName.get(name) ?? this.providers.find((p) => p.name === name) ?? null;
  }

  /** Every registered provider, enabled or not (the kiosk's message tables, readiness). */
  all(): readonly EidProvider[] {
    return this.providers;
  }

  isEnabled(name: string): boolean {
    return this.byName.has(name);
  }

  /** Every provider's own orders created before the time, enabled or not: nothing collects them any more. */
  async purgeOrdersCreatedBefore(createdBefore: Date): Promise<void> {
    for (const provider of this.providers) await provider.purgeOrdersCreatedBefore?.(createdBefore);
  }
}

/** Two providers answering to one acr would make a login's provider a matter of order: the start stops instead. */
function assertAcrValuesUnique(providers: readonly EidProvider[]): void {
  const owners = new Map<string, string>();
  for (const provider of providers.filter(hasOpenIdFace)) {
    const acrs = new Set([...provider.openId.acrValues.map((v) => v.acr), ...(provider.openId.ciba ? [provider.openId.ciba.acr] : [])]);
    for (const acr of acrs) {
      const owner = owners.get(acr);
      if (owner) throw new Error(`The acr value ${acr} is claimed by both ${owner} and ${provider.name}`);
      owners.set(acr, provider.name);
    }
  }
}
