import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { Clock } from '../../common/clock/clock.js';
import { certificateStatus, type CertificateStatus } from '../bankid/bankid-certificate.check.js';
import { FrejaConnections } from './freja-connections.js';

/** Expiry of the Freja RP certificates, reported by readiness as BankID's are (docs/freja.md). */
@Injectable()
export class FrejaCertificateCheck implements OnApplicationBootstrap {
  private readonly logger = new Logger(FrejaCertificateCheck.name);

  constructor(
    private readonly connections: FrejaConnections,
    private readonly clock: Clock,
  ) {}

  statuses(): CertificateStatus[] {
    const now = this.clock.now();
    return this.connections.all().map(({ environment, certificate }) => certificateStatus(environment, certificate, now));
  }

  onApplicationBootstrap(): void {
    for (const status of this.statuses()) {
      if (status.state !== 'valid') this.logger.warn(status, `The Freja RP certificate for ${status.environment} keys is ${status.state}`);
    }
  }
}
