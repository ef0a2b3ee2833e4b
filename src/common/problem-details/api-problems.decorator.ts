import { STATUS_CODES } from 'node:http';
import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ERROR_CODES, problemType, type ErrorCode } from './error-codes.js';
import { ProblemDto } from './problem.dto.js';

/** The body, query or path failed validation: 400 `validation_failed` with `errors`. */
export const VALIDATION = 'validation_failed' satisfies ErrorCode;

/** What every route behind an API key can answer before its handler runs (docs/api.md "Authentication"). */
export const API_KEY_PROBLEMS: ErrorCode[] = [
  'missing_token',
  'invalid_api_key',
  'ip_blocked',
  'api_key_blocked',
  'api_key_expired',
  'subscription_required',
  'subscription_expired',
  'endpoint_not_available',
  'insufficient_scope',
  'rate_limit_exceeded',
];

/** What every route behind a team member's JWT can answer before its handler runs. */
export const BEARER_PROBLEMS: ErrorCode[] = [
  'missing_token',
  'invalid_token',
  'ip_blocked',
  'subscription_required',
  'subscription_expired',
  'endpoint_not_available',
];

/** One example per problem, kept once in components.examples (openapi-document.ts) and referenced by routes. */
export function problemExample(problem: ErrorCode) {
  const { status, title } = ERROR_CODES[problem];
  const example = { type: problemType(problem), title, status, code: problem };
  if (problem !== VALIDATION) return example;
  return {
    ...example,
    detail: 'The request failed validation; see errors.',
    errors: [{ pointer: '/endUserIp', detail: 'endUserIp must be an IPv4 or IPv6 address' }],
  };
}

export const problemExampleName = (problem: ErrorCode) => `problem_${problem}`;

/** Every problem, for components.examples. */
export const ALL_PROBLEMS = Object.keys(ERROR_CODES) as ErrorCode[];

/**
 * The problem answers of a route, grouped by status from the code table (error-codes.ts), so a
 * code's status is stated once. Each status lists its codes, restricts `code` to them and gives an
 * example per code (docs/api.md "Errors").
 */
export function ApiProblems(...problems: ErrorCode[]): MethodDecorator & ClassDecorator {
  const byStatus = new Map<number, ErrorCode[]>();
  // Any route can fail unexpectedly (500 internal_error, with an errorId) or find its database away
  // (503 service_unavailable with Retry-After, docs/reliability.md).
  for (const problem of new Set([...problems, 'internal_error' as const, 'service_unavailable' as const])) {
    const { status } = ERROR_CODES[problem];
    byStatus.set(status, [...(byStatus.get(status) ?? []), problem]);
  }
  const responses = [...byStatus]
    .sort(([a], [b]) => a - b)
    .map(([status, codes]) => {
      // The input guard's refusal of the same request is a 400 without a `code` (docs/protection.md).
      const guarded = codes.includes(VALIDATION);
      const described = codes.map((code) => (code === VALIDATION ? `\`${code}\` (\`errors\`)` : `\`${code}\``));
      return ApiResponse({
        status,
        description: `${STATUS_CODES[status] ?? 'Error'}: ${described.join(', ')}${guarded ? "; or the input guard's refusal, without `code`" : ''}.`,
        content: {
          'application/problem+json': {
            schema: {
              allOf: [
                { $ref: getSchemaPath(ProblemDto) },
                { ...(guarded ? {} : { required: ['code'] }), properties: { code: { enum: codes } } },
              ],
            },
            examples: Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/examples/${problemExampleName(code)}` }])),
          },
        },
      });
    });
  return applyDecorators(ApiExtraModels(ProblemDto), ...responses);
}
