import { STATUS_CODES } from 'node:http';
import { applyDecorators } from '@nestjs/common';
import { ApiExtraModels, ApiResponse, getSchemaPath } from '@nestjs/swagger';
import { ERROR_CODES, problemType, type ErrorCode } from './error-codes.js';
import { ProblemDto } from './problem.dto.js';

/** A 400 without a `code`: the body, query or path failed validation (`errors`), or the input guard refused it. */
export const VALIDATION = 'validation';
/** A 413/415 from the body parser, a 414 from the router: every route that takes a body can answer them. */
export type ProblemCase = ErrorCode | typeof VALIDATION;

/** What every route behind an API key can answer before its handler runs (docs/api.md "Authentication"). */
export const API_KEY_PROBLEMS: ProblemCase[] = [
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
export const BEARER_PROBLEMS: ProblemCase[] = [
  'missing_token',
  'invalid_token',
  'ip_blocked',
  'subscription_required',
  'subscription_expired',
  'endpoint_not_available',
];

const statusOf = (problem: ProblemCase) => (problem === VALIDATION ? 400 : ERROR_CODES[problem].status);

/** One example per problem, kept once in components.examples (openapi-document.ts) and referenced by routes. */
export function problemExample(problem: ProblemCase) {
  if (problem === VALIDATION) {
    return {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      detail: 'The request failed validation; see errors.',
      errors: [{ pointer: '/endUserIp', detail: 'endUserIp must be an IPv4 or IPv6 address' }],
    };
  }
  const { status, title } = ERROR_CODES[problem];
  return { type: problemType(problem), title, status, code: problem };
}

export const problemExampleName = (problem: ProblemCase) => `problem_${problem}`;

/** Every problem case, for components.examples. */
export const ALL_PROBLEMS: ProblemCase[] = [VALIDATION, ...(Object.keys(ERROR_CODES) as ErrorCode[])];

/**
 * The problem answers of a route, grouped by status from the code table (error-codes.ts), so a
 * code's status is stated once. Each status lists its codes, restricts `code` to them and gives an
 * example per code (docs/api.md "Errors").
 */
export function ApiProblems(...problems: ProblemCase[]): MethodDecorator & ClassDecorator {
  const byStatus = new Map<number, ProblemCase[]>();
  // Any route can fail unexpectedly: 500 internal_error, with an errorId.
  for (const problem of new Set([...problems, 'internal_error' as const])) {
    const status = statusOf(problem);
    byStatus.set(status, [...(byStatus.get(status) ?? []), problem]);
  }
  const responses = [...byStatus]
    .sort(([a], [b]) => a - b)
    .map(([status, cases]) => {
      const codes = cases.filter((problem): problem is ErrorCode => problem !== VALIDATION);
      const described = cases.map((problem) => (problem === VALIDATION ? 'validation (`errors`, no `code`)' : `\`${problem}\``));
      return ApiResponse({
        status,
        description: `${STATUS_CODES[status] ?? 'Error'}: ${described.join(', ')}.`,
        content: {
          'application/problem+json': {
            // A validation failure has no code; otherwise `code` is one of the listed ones.
            schema: codes.length
              ? {
                  allOf: [
                    { $ref: getSchemaPath(ProblemDto) },
                    { ...(codes.length === cases.length ? { required: ['code'] } : {}), properties: { code: { enum: codes } } },
                  ],
                }
              : { $ref: getSchemaPath(ProblemDto) },
            examples: Object.fromEntries(
              cases.map((problem) => [problem, { $ref: `#/components/examples/${problemExampleName(problem)}` }]),
            ),
          },
        },
      });
    });
  return applyDecorators(ApiExtraModels(ProblemDto), ...responses);
}
