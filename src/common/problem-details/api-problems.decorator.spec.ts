import 'reflect-metadata';
import { ApiProblems, VALIDATION } from './api-problems.decorator.js';

// @nestjs/swagger keeps a method's responses under this metadata key, by status.
const API_RESPONSES = 'swagger/apiResponse';

type Responses = Record<
  string,
  {
    description: string;
    content: Record<string, { schema: { allOf?: { required?: string[]; properties?: { code?: { enum: string[] } } }[] } }>;
  }
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
  it('should group codes by the status of the error-code table, and add 500 internal_error and 503 service_unavailable', () => {
    const responses = responsesOf('session_not_found', 'unknown_provider', 'session_not_pending', 'missing_token');
    expect(Object.keys(responses).sort()).toEqual(['401', '404', '409', '500', '503']);
    expect(codesAt(responses, 503)).toEqual(['service_unavailable']);
    expect(codesAt(responses, 404)).toEqual(['session_not_found', 'unknown_provider']);
    expect(codesAt(responses, 409)).toEqual(['session_not_pending']);
    expect(codesAt(responses, 500)).toEqual(['internal_error']);
    expect(responses[404].description).toBe('Not Found: `session_not_found`, `unknown_provider`.');
  });

  it('should list validation_failed, without requiring a code, since the input guard refuses the same requests without one', () => {
    const responses = responsesOf(VALIDATION);
    const schema = responses[400].content['application/problem+json'].schema;
    expect(schema.allOf?.[1]).toEqual({ properties: { code: { enum: ['validation_failed'] } } });
    expect(responses[400].description).toBe("Bad Request: `validation_failed` (`errors`); or the input guard's refusal, without `code`.");
  });

  it('should list the other codes of a 400 beside validation_failed', () => {
    const schema = responsesOf(VALIDATION, 'qr_invalid')[400].content['application/problem+json'].schema;
    expect(schema.allOf?.[1]).toEqual({ properties: { code: { enum: ['validation_failed', 'qr_invalid'] } } });
  });

  it('should require a code on a 400 that cannot be a validation failure', () => {
    const schema = responsesOf('qr_invalid')[400].content['application/problem+json'].schema;
    expect(schema.allOf?.[1]).toEqual({ required: ['code'], properties: { code: { enum: ['qr_invalid'] } } });
  });
});
