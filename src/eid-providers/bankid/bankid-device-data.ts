import type { AppDevice, WebDevice } from '../eid-provider.js';
import type { BankIdAppDevice, BankIdWebDevice } from './bankid-rp-api.js';

/** BankID answers 400 to a longer web.userAgent, and in-app browsers send longer ones (docs/bankid.md, "Device data"). */
export const USER_AGENT_MAX = 256;

/** The first `max` UTF-16 units, without leaving half of a surrogate pair at the end. */
export function cutToLength(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

/** The device data of an order as BankID takes it: the fields given, the user agent cut to BankID's limit. */
export function deviceDataOf(request: { web?: WebDevice; app?: AppDevice }): { web?: BankIdWebDevice; app?: BankIdAppDevice } {
  if (request.web) {
    const { referringDomain, userAgent, deviceIdentifier } = request.web;
    return {
      web: {
        ...(referringDomain === undefined ? {} : { referringDomain }),
        ...(userAgent === undefined ? {} : { userAgent: cutToLength(userAgent, USER_AGENT_MAX) }),
        ...(deviceIdentifier === undefined ? {} : { deviceIdentifier }),
      },
    };
  }
  if (request.app) {
    const { appIdentifier, deviceOS, deviceModelName, deviceIdentifier } = request.app;
    return {
      app: {
        ...(appIdentifier === undefined ? {} : { appIdentifier }),
        ...(deviceOS === undefined ? {} : { deviceOS }),
        ...(deviceModelName === undefined ? {} : { deviceModelName }),
        ...(deviceIdentifier === undefined ? {} : { deviceIdentifier }),
      },
    };
  }
  return {};
}
