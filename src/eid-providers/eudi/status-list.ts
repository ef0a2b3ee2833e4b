import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { compactVerify, decodeJwt, decodeProtectedHeader } from 'jose';
import { PresentationRejected, type PresentationExpectations } from './presentation-checks.js';
import type { StatusListFetcher } from './status-list-fetcher.js';
import { chainsToAnchors, x5cCertificates } from './x5c-chain.js';

const VALID = 0;

/**
 * The credential's revocation by its status list (Token Status List, draft 12+, section 6): where the
 * credential names `status.status_list {idx, uri}`, the status list token at `uri` must be `typ
 * statuslist+jwt`, signed by a certificate that chains to the same anchors, be about `uri` (`sub`),
 * still valid, and say VALID (0) at `idx`. @sd-jwt/jwt-status-list decodes the list; jose checks the signature.
 */
export class StatusListCheck {
  constructor(private readonly fetcher: StatusListFetcher) {}

  async check(status: { status_list?: { idx?: unknown; uri?: unknown } } | undefined, expected: PresentationExpectations) {
    if (status === undefined) return 'none';
    const reference = status?.status_list;
    const { idx, uri } = reference ?? {};
    if (!reference || !Number.isSafeInteger(idx) || (idx as number) < 0 || typeof uri !== 'string' || !URL.canParse(uri))
      throw new PresentationRejected('status');
    const token = await this.fetcher.fetch(uri).catch(() => null);
    if (!token || !(await this.tokenHolds(token, uri, expected))) throw new PresentationRejected('status');
    let value: number;
    try {
      value = getListFromStatusListJWT(token).getStatus(idx as number);
    } catch {
      throw new PresentationRejected('status');
    }
    if (value !== VALID) throw new PresentationRejected('status');
    return 'valid';
  }

  private async tokenHolds(token: string, uri: string, expected: PresentationExpectations): Promise<boolean> {
    try {
      const header = decodeProtectedHeader(token);
      const payload = decodeJwt(token);
      const certificates = x5cCertificates(header.x5c);
      if (header.typ !== 'statuslist+jwt' || typeof header.alg !== 'string' || !certificates) return false;
      if (!(await chainsToAnchors(certificates, expected.anchors, expected.now))) return false;
      await compactVerify(token, certificates[0].publicKey, { algorithms: ['ES256', 'ES384', 'ES512'] });
      const now = Math.floor(expected.now.getTime() / 1000);
      return payload.sub === uri && (payload.exp === undefined || payload.exp > now);
    } catch {
      return false;
    }
  }
}
