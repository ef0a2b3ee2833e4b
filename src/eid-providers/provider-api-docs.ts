/**
 * What the session answers' OpenAPI document says of the providers (docs/providers.md), so the
 * session DTOs name none: the requirements they take, and examples of their links,
 * words and QR codes.
 */
export const PROVIDER_API_DOCS = {
  personalNumber: 'Swedish personal number, 12 digits (BankID, Freja, the simulator).',
  requirement: 'Provider requirements (BankID: pinCode, mrtd, cardReader, certificatePolicies, personalNumber).',
  launchUrl: {
    description: "Opens the e-ID app on the same device (BankID's universal link, Freja eID's app link); see docs/same-device.md.",
    example: 'https://app.bankid.com/?autostarttoken=7c40b5c9-fa74-49cf-b98c-bfe651f9a7c6&redirect=null',
  },
  userMessage: {
    code: "The message's code: BankID's recommended message (`RFA…`), or for a Freja session Freja's (`FREJA_…`).",
    sv: 'Starta BankID-appen.',
    en: 'Start your BankID app.',
    description: "Pending and failed: the provider's recommended message to show the person (BankID's RFA table, Freja eID's own words).",
  },
  qrData: 'bankid.67df3917-fa0d-44e5-b327-edcc928297f8.1.dc69358e712458a66a7525beef148ae8526b1c71610eff2c16cdffb4cdac9bf8',
  qrTime: 'Whole seconds since the order was made; absent for a static code (Freja eID).',
} as const;
