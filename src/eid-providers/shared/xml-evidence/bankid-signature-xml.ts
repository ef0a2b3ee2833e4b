// The shape of BankID's completionData.signature, described in docs/evidence.md.
export const XMLDSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
export const BANKID_SIGNATURE_NS = 'http://www.bankid.com/signature/v1.0.0/types';
export const SIGNED_DATA_ID = 'bidSignedData';
export const KEY_INFO_ID = 'bidKeyInfo';

export const C14N = 'http://www.w3.org/TR/2001/REC-xml-c14n-20010315';
export const RSA_SHA256 = 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256';
export const SHA256 = 'http://www.w3.org/2001/04/xmlenc#sha256';

/** What the user's app put under bankIdSignedData: the texts (base64, as the RP sent them) and the operation. */
export interface BankIdSignedData {
  usrVisibleData?: string;
  usrNonVisibleData?: string;
  /** `Identification` for auth orders, `Signing` for sign orders. */
  funcId?: string;
}

export type BankIdFunction = 'Identification' | 'Signing';

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The bankIdSignedData element as a BankID app writes it (without the client's host and version details). */
export function bankIdSignedDataXml(data: {
  usrVisibleData?: string;
  usrNonVisibleData?: string;
  funcId: BankIdFunction;
  nonce: string;
}): string {
  return (
    `<bankIdSignedData xmlns="${BANKID_SIGNATURE_NS}" Id="${SIGNED_DATA_ID}">` +
    (data.usrVisibleData === undefined
      ? ''
      : `<usrVisibleData charset="UTF-8" visible="wysiwys">${escapeXml(data.usrVisibleData)}</usrVisibleData>`) +
    (data.usrNonVisibleData === undefined ? '' : `<usrNonVisibleData>${escapeXml(data.usrNonVisibleData)}</usrNonVisibleData>`) +
    `<srvInfo><nonce>${escapeXml(data.nonce)}</nonce></srvInfo>` +
    `<clientInfo><funcId>${data.funcId}</funcId></clientInfo>` +
    `</bankIdSignedData>`
  );
}
