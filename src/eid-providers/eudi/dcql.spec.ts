import { DEFAULT_CREDENTIAL_QUERY, parseCredentialQuery } from './dcql.js';

describe(parseCredentialQuery.name, () => {
  const pid = DEFAULT_CREDENTIAL_QUERY.credentials[0];

  it('should accept the default PID query and an age attestation', () => {
    expect(parseCredentialQuery(JSON.stringify(DEFAULT_CREDENTIAL_QUERY))).toEqual({ query: DEFAULT_CREDENTIAL_QUERY });
    const age = {
      credentials: [
        { id: 'age', format: 'dc+sd-jwt', meta: { vct_values: ['urn:eudi:age_verification:1'] }, claims: [{ path: ['age_over_18'] }] },
      ],
    };
    expect(parseCredentialQuery(JSON.stringify(age))).toEqual({ query: age });
  });

  it.each([
    ['not JSON', '{', 'the file is not JSON'],
    ['two credentials', JSON.stringify({ credentials: [pid, pid] }), 'field credentials: must hold exactly one credential query'],
    ['mdoc', JSON.stringify({ credentials: [{ ...pid, format: 'mso_mdoc' }] }), 'field credentials.0.format'],
    ['an unknown member', JSON.stringify({ credentials: [{ ...pid, extra: 1 }] }), 'field credentials.0'],
    ['a claim set naming no claim', JSON.stringify({ credentials: [{ ...pid, claim_sets: [['nope']] }] }), 'claim_sets'],
  ])('should refuse %s, naming the field', (_, text, problem) => {
    const parsed = parseCredentialQuery(text);
    expect('problem' in parsed && parsed.problem).toContain(problem);
  });
});
