import { crc32 } from 'node:zlib';
import { sha256 } from '../common/crypto/constant-time.js';
import { randomBase62, toBase62 } from '../common/crypto/random-token.js';

export const API_KEY_ENVIRONMENTS = ['test', 'live'] as const;
export type ApiKeyEnvironment = (typeof API_KEY_ENVIRONMENTS)[number];

// 32 base62 characters carry 190 bits; the 6-character CRC32 lets us (and secret scanners)
// reject a mistyped or made-up key without a database lookup, as GitHub's token format does.
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_PATTERN = /^eidk_(test|live)_([0-9A-Za-z]{32})([0-9A-Za-z]{6})$/;

export interface GeneratedApiKey {
  key: string;
  hash: Buffer;
  displayPrefix: string;
  lastFour: string;
}

const checksum = (body: string) => toBase62(crc32(body), CHECKSUM_LENGTH);

export function generateApiKey(environment: ApiKeyEnvironment): GeneratedApiKey {
  const body = `eidk_${environment}_${randomBase62(RANDOM_LENGTH)}`;
  const key = body + checksum(body);
  return { key, hash: hashApiKey(key), displayPrefix: key.slice(0, 14), lastFour: key.slice(-4) };
}

/** The environment of a well-formed key with a valid checksum, else null. */
export function parseApiKey(candidate: string): ApiKeyEnvironment | null {
  const match = KEY_PATTERN.exec(candidate);
  if (!match) return null;
  const body = `eidk_${match[1]}_${match[2]}`;
  return checksum(body) === match[3] ? (match[1] as ApiKeyEnvironment) : null;
}

export const hashApiKey = (key: string): Buffer => sha256(key);
