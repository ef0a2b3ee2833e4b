import { RISK_LEVELS, type CollectResult, type CompletedIdentity, type RiskLevel } from '../eid-provider.js';
import type { CollectResponse } from './bankid-rp-api.js';

/** A collect answer read field by field: a result, or the reasons a `complete` answer has no usable user. */
export type CollectReading = { kind: 'result'; result: CollectResult; dropped: string[] } | { kind: 'unusable'; problems: string[] };

const USER_FIELDS = ['personalNumber', 'name', 'givenName', 'surname'] as const;
const PERSONAL_NUMBER = /^\d{12}$/;
// Evidence BankID documents as text; stepUp is kept whatever its shape (docs/bankid.md, "Tolerant collect").
const TEXT_EVIDENCE = ['bankIdIssueDate', 'signature', 'ocspResponse', 'risk'] as const;

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const shape = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`);

/**
 * Reads a collect answer as the service needs it. Only the user of a `complete` answer must be
 * as BankID documents it; every optional field in another shape is dropped and named in `dropped`,
 * never its value (it may be personal data).
 */
export function readCollect(response: CollectResponse): CollectReading {
  const dropped: string[] = [];
  if (response.status !== 'complete') {
    const hintCode = typeof response.hintCode === 'string' && response.hintCode ? response.hintCode : undefined;
    if (response.hintCode !== undefined && !hintCode) dropped.push(`hintCode (${shape(response.hintCode)})`);
    return { kind: 'result', result: { status: response.status, ...(hintCode ? { hintCode } : {}) }, dropped };
  }
  const data = response.completionData;
  if (!isObject(data)) return { kind: 'unusable', problems: [`completionData is ${data === undefined ? 'missing' : shape(data)}`] };
  const user = data.user;
  if (!isObject(user)) return { kind: 'unusable', problems: [`completionData.user is ${user === undefined ? 'missing' : shape(user)}`] };
  const problems = USER_FIELDS.flatMap((field) => {
    const value = user[field];
    if (typeof value !== 'string') return [`completionData.user.${field} is ${value === undefined ? 'missing' : shape(value)}`];
    if (field === 'personalNumber' && !PERSONAL_NUMBER.test(value)) return ['completionData.user.personalNumber is not 12 digits'];
    return [];
  });
  if (problems.length) return { kind: 'unusable', problems };

  const completion: CompletedIdentity = {
    user: {
      personalNumber: user.personalNumber as string,
      name: user.name as string,
      givenName: user.givenName as string,
      surname: user.surname as string,
    },
  };
  const device = readDevice(data.device, dropped);
  if (device) completion.device = device;
  const evidence: Record<string, unknown> = {};
  for (const field of TEXT_EVIDENCE) {
    if (data[field] === undefined) continue;
    if (typeof data[field] === 'string') evidence[field] = data[field];
    else dropped.push(`completionData.${field} (${shape(data[field])})`);
  }
  if (data.stepUp !== undefined && data.stepUp !== null) evidence.stepUp = data.stepUp;
  // The documented levels only are held against a key's maxRisk (docs/bankid.md, "Risk").
  if ((RISK_LEVELS as readonly unknown[]).includes(data.risk)) completion.risk = data.risk as RiskLevel;
  if (Object.keys(evidence).length) completion.evidence = evidence;
  return { kind: 'result', result: { status: 'complete', completion }, dropped };
}

function readDevice(device: unknown, dropped: string[]): CompletedIdentity['device'] | undefined {
  if (device === undefined) return undefined;
  if (!isObject(device)) {
    dropped.push(`completionData.device (${shape(device)})`);
    return undefined;
  }
  const read: NonNullable<CompletedIdentity['device']> = {};
  for (const field of ['ipAddress', 'uhi'] as const) {
    if (device[field] === undefined) continue;
    if (typeof device[field] === 'string') read[field] = device[field];
    else dropped.push(`completionData.device.${field} (${shape(device[field])})`);
  }
  return Object.keys(read).length ? read : undefined;
}
