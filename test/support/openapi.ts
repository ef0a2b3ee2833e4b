// Real answers checked against openapi.json, the document the service serves (test/e2e/platform/openapi checks
// they are equal), so the document and the service cannot drift apart unnoticed:
//
//   expectMatchesSchema(await e2e.http.post('/api/v1/auth/simulator/start')…, 'POST /api/v1/auth/{provider}/start');
//
// The operation must declare the answer's status and media type, and the body must match its schema
// (JSON Schema 2020-12 as OpenAPI 3.1 uses it, formats included). Problem answers are checked the same
// way, so a `code` a route does not declare fails too.
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Response } from 'supertest';

const DOCUMENT_ID = 'https://eid-gateway.invalid/openapi.json';
const document = JSON.parse(readFileSync(new URL('../../openapi.json', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>>;
};

// strict: false lets OpenAPI's own keywords (example, discriminator) pass as annotations.
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ ...document, $id: DOCUMENT_ID });
const validators = new Map<string, ValidateFunction>();

const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

function validatorAt(...path: string[]): ValidateFunction {
  const ref = `${DOCUMENT_ID}#/${pointer(...path)}`;
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: ref });
    validators.set(ref, validate);
  }
  return validate;
}

function expectValid(validate: ValidateFunction, body: unknown, what: Record<string, unknown>): void {
  const valid = validate(body);
  // The errors name the member and the rule, so a failure says what drifted.
  expect({ ...what, errors: valid ? [] : ajv.errorsText(validate.errors, { separator: '\n' }).split('\n') }).toEqual({
    ...what,
    errors: [],
  });
}

/** A webhook body as a receiver got it, against the document's `webhooks` entry for its type. */
export function expectWebhookMatchesSchema(body: { type: string }): void {
  expectValid(validatorAt('webhooks', body.type, 'post', 'requestBody', 'content', 'application/json', 'schema'), body, {
    webhook: body.type,
  });
}

/** `operation` is "METHOD /path/{param}" as in the document, e.g. 'POST /api/v1/auth/{sessionId}/poll'. */
export function expectMatchesSchema(res: Response, operation: string): void {
  const [method, path] = operation.split(' ');
  const declared = document.paths[path]?.[method.toLowerCase()];
  if (!declared) throw new Error(`openapi.json has no operation ${operation}`);
  const status = String(res.status);
  const response = declared.responses[status];
  if (!response)
    throw new Error(`${operation} does not declare status ${status} (declared: ${Object.keys(declared.responses).join(', ')})`);
  if (!response.content) {
    expect(res.text ?? '').toBe('');
    return;
  }
  const mediaType = String(res.headers['content-type'] ?? '')
    .split(';')[0]
    .trim();
  if (!(mediaType in response.content))
    throw new Error(`${operation} ${status} does not declare ${mediaType} (declared: ${Object.keys(response.content).join(', ')})`);
  if (!mediaType.endsWith('json')) return;
  expectValid(validatorAt('paths', path, method.toLowerCase(), 'responses', status, 'content', mediaType, 'schema'), res.body, {
    operation,
    status,
  });
}
