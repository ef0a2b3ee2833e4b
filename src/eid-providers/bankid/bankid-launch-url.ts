/**
 * BankID's universal link for a same-device start. `redirect=null` always: the way back is the returnUrl
 * given to BankID with the order (server side, with our nonce), which the app honours on iOS and Android
 * alike, while a redirect in the link would open in the wrong browser on iOS (docs/same-device.md).
 */
export function bankIdLaunchUrl(autoStartToken: string): string {
  return `https://app.bankid.com/?autostarttoken=${encodeURIComponent(autoStartToken)}&redirect=null`;
}
