/** Associated data binding each encrypted session column to its row: a value copied to another row does not decrypt. */
export const qrSecretAad = (sessionId: string) => `sessions:${sessionId}:qr_start_secret`;
export const completionAad = (sessionId: string) => `sessions:${sessionId}:completion`;
export const signedTextsAad = (sessionId: string) => `sessions:${sessionId}:signed_texts`;
export const evidenceAad = (sessionId: string) => `sessions:${sessionId}:evidence`;
export const resultTokenAad = (sessionId: string) => `sessions:${sessionId}:result_token`;
export const launchUrlAad = (sessionId: string) => `sessions:${sessionId}:launch_url`;
export const renewalRequestAad = (sessionId: string) => `sessions:${sessionId}:renewal_request`;
