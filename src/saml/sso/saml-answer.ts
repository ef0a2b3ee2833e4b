/** What a SAML route sends the browser: a form to the SP, a redirect, or a page saying why not. */
export type SamlAnswer =
  | { kind: 'post'; action: string; fields: Record<string, string | undefined> }
  | { kind: 'redirect'; location: string; setCookie?: string }
  | { kind: 'problem'; status: number; message: string };

export const problem = (message: string, status = 400): SamlAnswer => ({ kind: 'problem', status, message });
