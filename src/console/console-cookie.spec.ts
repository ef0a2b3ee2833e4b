import type { FastifyRequest } from 'fastify';
import { DomainException } from '../common/problem-details/domain.exception.js';
import { CONSOLE_COOKIE, clearedSessionCookie, consoleSessionToken, readCookie, sessionCookie } from './console-cookie.js';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as FastifyRequest;

describe('console cookie', () => {
  it('should set the token HttpOnly, Secure and SameSite=Strict for the token lifetime', () => {
    expect(sessionCookie('abc.def.ghi', 3600)).toBe(
      `${CONSOLE_COOKIE}=abc.def.ghi; Path=/; Max-Age=3600; HttpOnly; Secure; SameSite=Strict`,
    );
    expect(clearedSessionCookie()).toContain('Max-Age=0');
  });

  it.each([
    [undefined, null],
    ['', null],
    ['a=1; b=2', null],
    [`a=1; ${CONSOLE_COOKIE}=tok; b=2`, 'tok'],
    [`${CONSOLE_COOKIE}=`, null],
    [`x${CONSOLE_COOKIE}=no`, null],
  ])('should read %p as %p', (header, expected) => {
    expect(readCookie(header, CONSOLE_COOKIE)).toBe(expected);
  });

  it('should give the cookie token only with the console header', () => {
    const cookie = `${CONSOLE_COOKIE}=tok`;
    expect(consoleSessionToken(request({ cookie, 'x-eidgw-console': '1' }))).toBe('tok');
    expect(consoleSessionToken(request({}))).toBeNull();
    expect(() => consoleSessionToken(request({ cookie }))).toThrow(DomainException);
  });
});
