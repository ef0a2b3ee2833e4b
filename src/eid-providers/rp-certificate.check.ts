import type { X509Certificate } from 'node:crypto';
import { Logger, type FactoryProvider, type OnApplicationBootstrap, type Type } from '@nestjs/common';
import type { ApiKeyEnvironment } from '../api-keys/api-key-format.js';
import { Clock } from '../common/clock/clock.js';

/** An RP certificate this close to its end is reported, so it is renewed before the provider refuses it. */
export const CERTIFICATE_WARNING_DAYS = 30;
const DAY_MS = 86_400_000;

export type CertificateState = 'valid' | 'expiring' | 'expired';

export interface CertificateStatus {
  environment: ApiKeyEnvironment;
  state: CertificateState;
  expiresAt: string;
  daysLeft: number;
}

export function certificateState(expiresAt: Date, now: Date): CertificateState {
  if (expiresAt <= now) return 'expired';
  return expiresAt.getTime() - now.getTime() <= CERTIFICATE_WARNING_DAYS * DAY_MS ? 'expiring' : 'valid';
}

/** How long an RP certificate (of any provider) has left, as readiness reports it. */
export function certificateStatus(environment: ApiKeyEnvironment, certificate: X509Certificate, now: Date): CertificateStatus {
  const expiresAt = new Date(certificate.validTo);
  return {
    environment,
    state: certificateState(expiresAt, now),
    expiresAt: expiresAt.toISOString(),
    daysLeft: Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / DAY_MS)),
  };
}

/** What the check reads of a provider's connections: the RP certificate of each configured environment. */
export interface RpCertificates {
  all(): { environment: ApiKeyEnvironment; certificate: X509Certificate }[];
}

/**
 * Expiry of one provider's RP certificates (docs/bankid.md, docs/freja.md): an expired one is a
 * certain outage, so it fails readiness; one about to expire is logged at start.
 */
export class RpCertificateCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger(RpCertificateCheck.name);

  constructor(
    /** The provider's name in messages, e.g. BankID. */
    private readonly provider: string,
    private readonly connections: RpCertificates,
    private readonly clock: Clock,
  ) {}

  statuses(): CertificateStatus[] {
    const now = this.clock.now();
    return this.connections.all().map(({ environment, certificate }) => certificateStatus(environment, certificate, now));
  }

  onApplicationBootstrap(): void {
    for (const status of this.statuses()) {
      if (status.state !== 'valid')
        this.logger.warn(status, `The ${this.provider} RP certificate for ${status.environment} keys is ${status.state}`);
    }
  }
}

/** The check of one provider, registered in its module under `provide`. */
export function rpCertificateCheckProvider(
  provide: symbol,
  provider: string,
  connections: Type<RpCertificates>,
): FactoryProvider<RpCertificateCheck> {
  return {
    provide,
    inject: [connections, Clock],
    useFactory: (source: RpCertificates, clock: Clock) => new RpCertificateCheck(provider, source, clock),
  };
}
