// The Swedish eID Framework's levels of assurance (docs/saml.md, "Authentication contexts"): BankID and
// Freja eID+ are certified at loa3; the simulator stands in for BankID in tests.
export const LOA3 = 'http://id.elegnamnden.se/loa/1.0/loa3';
