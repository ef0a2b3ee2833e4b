import { z } from 'zod';

/** The PID's type as an SD-JWT VC (the PID rulebook's `urn:eudi:pid:1`). */
export const PID_VCT = 'urn:eudi:pid:1';

const claimPath = z
  .array(z.union([z.string().min(1).max(100), z.number().int().nonnegative(), z.null()]))
  .min(1)
  .max(5);
const claimId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be letters, digits, _ or -');

// One credential query (OpenID4VP 1.0, section 6.1) of an SD-JWT VC: what the verifier maps to a person.
const credentialSchema = z
  .object({
    id: claimId,
    format: z.literal('dc+sd-jwt'),
    meta: z.object({ vct_values: z.array(z.string().min(1).max(200)).min(1).max(10) }).strict(),
    claims: z
      .array(z.object({ id: claimId.optional(), path: claimPath }).strict())
      .min(1)
      .max(50),
    claim_sets: z.array(z.array(claimId).min(1)).min(1).max(10).optional(),
  })
  .strict();

const querySchema = z.object({ credentials: z.array(credentialSchema).length(1, 'must hold exactly one credential query') }).strict();

/** A DCQL query (OpenID4VP 1.0, section 6) of one SD-JWT VC credential, as EUDI_CREDENTIALS holds it. */
export type CredentialQuery = z.infer<typeof querySchema>;

/**
 * The default: the PID, with the claims a login needs; a PID without a personal administrative number
 * still answers (the second claim set), as several member states issue none.
 */
export const DEFAULT_CREDENTIAL_QUERY: CredentialQuery = {
  credentials: [
    {
      id: 'pid',
      format: 'dc+sd-jwt',
      meta: { vct_values: [PID_VCT] },
      claims: [
        { id: 'given_name', path: ['given_name'] },
        { id: 'family_name', path: ['family_name'] },
        { id: 'birthdate', path: ['birthdate'] },
        { id: 'nationalities', path: ['nationalities'] },
        { id: 'personal_administrative_number', path: ['personal_administrative_number'] },
      ],
      claim_sets: [
        ['given_name', 'family_name', 'birthdate', 'nationalities', 'personal_administrative_number'],
        ['given_name', 'family_name', 'birthdate', 'nationalities'],
      ],
    },
  ],
};

/** EUDI_CREDENTIALS's file, checked; the problem names the field, never a value. */
export function parseCredentialQuery(text: string): { query: CredentialQuery } | { problem: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { problem: 'the file is not JSON' };
  }
  const parsed = querySchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { problem: `field ${issue.path.join('.') || '(query)'}: ${issue.message}` };
  }
  const [credential] = parsed.data.credentials;
  const ids = new Set(credential.claims.map((c) => c.id).filter(Boolean));
  if (credential.claim_sets?.some((set) => set.some((id) => !ids.has(id))))
    return { problem: 'field credentials.0.claim_sets: names a claim id the claims do not define' };
  return { query: parsed.data };
}
