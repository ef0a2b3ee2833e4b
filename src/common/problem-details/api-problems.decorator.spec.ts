import 'reflect-metadata';
import { ApiProblems, VALIDATION } from './api-problems.decorator.js';

// @nestjs/swagger keeps a method's responses under this metadata key, by status.
const API_RESPONSES = 'swagger/apiResponse';

type Responses = Record<
  string,
  { description: string; content: Record<string, { schema: { allOf?: { properties?: { code?: { enum: string[] } } }[] } }> }
>;

function responsesOf(...problems: Parameters<typeof ApiProblems>): Responses {
  class Probe {
    @ApiProblems(...problems)
    route(): void {}
  }
  return Reflect.getMetadata(API_RESPONSES, Object.getOwnPropertyDescriptor(Probe.prototype, 'route')!.value) as Responses;
}

const codesAt = (responses: Responses, status: number) =>
  responses[status].content['application/problem+json'].schema.allOf?.[1].properties?.code?.enum ?? [];

describe(ApiProblems.name, () => {
  it('should group codes by the status of the error-code table, and add 500 internal_error', () => {
    const responses = responsesOf('session_not_found', 'unknown_provider', 'session_not_pending', 'missing_token');
    expect(Object.keys(responses).sort()).toEqual(['401', '404', '409', '500']);
    expect(codesAt(responses, 404)).toEqual(['session_not_found', 'unknown_provider']);
    expect(codesAt(responses, 409)).toEqual(['session_not_pending']);
    expect(codesAt(responses, 500)).toEqual(['internal_error']);
    expect(responses[404].description).toBe('Not Found: `session_not_found`, `unknown_provider`.');
  });

  it('should leave `code` free of an enum on a 400 that is a validation failure only', () => {
    const responses = responsesOf(VALIDATION);
    expect(responses[400].content['application/problem+json'].schema).toEqual({ $ref: '#/components/schemas/ProblemDto' });
  });

  it('should list the codes of a 400 that may also be a validation failure, without requiring one', () => {
    const schema = responsesOf(VALIDATION, 'qr_invalid')[400].content['application/problem+json'].schema;
    expect(schema.allOf?.[1]).toEqual({ properties: { code: { enum: ['qr_invalid'] } } });
  });
});
