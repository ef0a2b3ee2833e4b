import type { Response } from 'supertest';

/**
 * Asserts an RFC 9457 problem-details answer with the gateway's `code` (docs/api.md, "Errors"): its
 * status, media type, type URN, title and detail, no API key echoed, and a 401's WWW-Authenticate realm.
 */
export function expectProblem(res: Response, status: number, code: string): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({
    type: `urn:eid-gateway:problem:${code}`,
    status,
    code,
    title: expect.any(String),
    detail: expect.any(String),
  });
  expect(JSON.stringify(res.body)).not.toMatch(/eidk_(test|live)_/);
  if (status === 401) expect(res.headers['www-authenticate']).toMatch(/realm="eid-gateway"/);
}

/** Asserts a `validation_failed` answer whose `errors` each name a member; returns their JSON pointers. */
export function expectValidationProblem(res: Response): string[] {
  expectProblem(res, 400, 'validation_failed');
  const errors = res.body.errors as { pointer: string; detail: string }[];
  expect(errors.length).toBeGreaterThan(0);
  for (const error of errors) expect(error).toEqual({ pointer: expect.stringMatching(/^(\/.*)?$/), detail: expect.any(String) });
  return errors.map((error) => error.pointer);
}
