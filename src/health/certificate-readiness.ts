import type { CertificateStatus } from '../eid-providers/rp-certificate.check.js';

/** The RP certificates of one provider, as readiness reports them (docs/operations.md). */
export interface ProviderCertificates {
  /** The provider's app name in messages. */
  label: string;
  /** The member of `checks` that lists them: `<provider name>Certificates`. */
  check: string;
  statuses: CertificateStatus[];
}

/** Expired certificates (a certain outage), warnings (within 30 days), and the checks to report. */
export function certificateReadiness(providers: ProviderCertificates[]): {
  expired: string[];
  warnings: string[];
  checks: Record<string, unknown>;
} {
  const expired: string[] = [];
  const warnings: string[] = [];
  const checks: Record<string, unknown> = {};
  for (const { label, check, statuses } of providers) {
    if (!statuses.length) continue;
    const expiredFor = statuses.filter((c) => c.state === 'expired').map((c) => c.environment);
    if (expiredFor.length) expired.push(`${label} RP certificate expired for ${expiredFor.join(' and ')} keys`);
    for (const c of statuses.filter((s) => s.state === 'expiring'))
      warnings.push(`The ${label} RP certificate for ${c.environment} keys expires in ${c.daysLeft} days (${c.expiresAt}): renew it.`);
    checks[check] = Object.fromEntries(statuses.map(({ environment, ...status }) => [environment, status]));
  }
  return { expired, warnings, checks };
}
