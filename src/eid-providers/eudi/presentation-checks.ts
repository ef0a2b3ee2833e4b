import type * as pkijs from 'pkijs';

/** The checks of a presentation, in the order they run (docs/eudi-wallet.md, "What is checked"). */
export const PRESENTATION_CHECKS = [
  'format',
  'chain',
  'issuerSignature',
  'vct',
  'validity',
  'disclosures',
  'keyBinding',
  'status',
] as const;
export type PresentationCheck = (typeof PRESENTATION_CHECKS)[number];

/** A presentation that failed a check: the check's name only, never a claim's value. */
export class PresentationRejected extends Error {
  override name = 'PresentationRejected';

  constructor(readonly check: PresentationCheck) {
    super(`The presentation failed the ${check} check`);
  }
}

/** What the evidence reports of each check that passed (docs/eudi-wallet.md, "Evidence"). */
export interface PresentationReport {
  issuerSignature: 'valid';
  chain: 'trusted';
  disclosures: 'valid';
  keyBinding: 'valid';
  /** `none`: the credential names no status list. */
  statusList: 'valid' | 'none';
}

/** What the session asked for and holds: the presentation must answer exactly this. */
export interface PresentationExpectations {
  vctValues: readonly string[];
  clientId: string;
  nonce: string;
  anchors: readonly pkijs.Certificate[];
  now: Date;
}
