import { ValidationPipe, type ArgumentMetadata } from '@nestjs/common';
import { QrQueryDto } from './qr-query.dto.js';
import { StartSessionDto } from './start-session.dto.js';
import { ValidationProblemException } from '../../../common/problem-details/validation-problem.exception.js';
import { apiValidationPipe } from '../../../common/validation/api-validation-pipe.js';
import { compileValidation } from '../../../common/validation/compiled-validation.js';

// The pipe as Nest ships it, with the global pipe's options: what the compiled checks must agree with.
const nestPipe = new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true });
const piped = (value: unknown, metatype: ArgumentMetadata['metatype'], type: ArgumentMetadata['type'] = 'body') =>
  nestPipe.transform(structuredClone(value), { type, metatype }).then(
    (entity: unknown) => ({ entity }),
    () => 'refused' as const,
  );

const START = { endUserIp: '192.0.2.10' };
const startBodies: [string, unknown][] = [
  ['the least body', START],
  [
    'every scalar field',
    {
      endUserIp: '2001:db8::1',
      userVisibleData: 'Logga in hos Tenant AB\nOrder A-1',
      userVisibleDataFormat: 'simpleMarkdownV1',
      returnUrl: 'https://rp.example/return?nonce=1',
      autoRenew: true,
      ageOver: 18,
      metadata: { orderId: 'A-1', amountOre: 124_900, paid: false, note: null },
      requirement: { pinCode: true },
      userInfoType: 'SSN',
      userInfo: '198507099805',
      minRegistrationLevel: 'EXTENDED',
    },
  ],
  ['a null optional field', { ...START, userVisibleData: null }],
  ['no endUserIp', {}],
  ['a bad endUserIp', { endUserIp: '999.1.1.1' }],
  ['a number for endUserIp', { endUserIp: 19216801 }],
  ['empty text to show', { ...START, userVisibleData: '' }],
  ['text to show too long', { ...START, userVisibleData: 'x'.repeat(1501) }],
  ['an unknown format', { ...START, userVisibleDataFormat: 'html' }],
  ['a relative returnUrl', { ...START, returnUrl: '/return' }],
  ['autoRenew as a string', { ...START, autoRenew: 'yes' }],
  ['an unknown ageOver', { ...START, ageOver: 17 }],
  ['nested metadata', { ...START, metadata: { a: { b: 1 } } }],
  ['metadata as an array', { ...START, metadata: ['a'] }],
  ['metadata over 1 KiB', { ...START, metadata: { a: 'x'.repeat(1100) } }],
  ['an unknown field', { ...START, admin: true }],
  ['a field named constructor', { ...START, constructor: 'x' }],
  [
    'device data of the browser',
    { ...START, web: { referringDomain: 'rp.example', userAgent: 'Firefox', deviceIdentifier: 'a'.repeat(64) } },
  ],
  ['web and app together', { ...START, web: {}, app: {} }],
  ['a nested requirement', { ...START, requirement: { certificatePolicies: ['1.2.752.78.1.5'] } }],
  ['an array body', [START]],
  ['a string body', 'endUserIp'],
  ['no body', undefined],
];

describe('The start body and QR query, compiled', () => {
  const start = compileValidation(StartSessionDto)!;

  it.each(startBodies)('should never accept a start body the pipe refuses, nor differ from its instance: %s', async (_name, body) => {
    const accepted = start(structuredClone(body));
    const expected = await piped(body, StartSessionDto);
    if (accepted !== undefined) {
      expect(expected).not.toBe('refused');
      expect(accepted).toBeInstanceOf(StartSessionDto);
      expect(accepted).toEqual((expected as { entity: unknown }).entity);
    }
  });

  it('should decide the bodies relying parties send without the pipe', () => {
    expect(start(structuredClone(startBodies[0][1]))).toBeInstanceOf(StartSessionDto);
    expect(start(structuredClone(startBodies[1][1]))).toBeInstanceOf(StartSessionDto);
    expect(start({ ...START, userVisibleData: null })).toMatchObject({ userVisibleData: null });
  });

  it('should leave to the pipe what it refuses, nested device data and arrays', () => {
    for (const [name, body] of startBodies.slice(3)) expect([name, start(structuredClone(body))]).toEqual([name, undefined]);
  });

  it('should decide an empty or plain QR query and leave a converted one to the pipe', async () => {
    const qr = compileValidation(QrQueryDto)!;
    const query = (entries: Record<string, string>) => Object.assign(Object.create(null) as object, entries);
    expect(qr(query({}))).toEqual(new QrQueryDto());
    expect(qr(query({ format: 'svg' }))).toEqual(Object.assign(new QrQueryDto(), { format: 'svg' }));
    // size arrives as a string and class-transformer makes it a number: only the pipe does that.
    expect(qr(query({ size: '300' }))).toBeUndefined();
    expect(await piped(query({ size: '300' }), QrQueryDto, 'query')).toEqual({ entity: Object.assign(new QrQueryDto(), { size: 300 }) });
    expect(qr(query({ format: 'gif' }))).toBeUndefined();
  });
});

describe('apiValidationPipe', () => {
  it('should answer an accepted body as the pipe does and refuse a bad one with the pipe’s problem', async () => {
    const body = startBodies[1][1];
    expect(await apiValidationPipe.transform(structuredClone(body), { type: 'body', metatype: StartSessionDto })).toEqual(
      ((await piped(body, StartSessionDto)) as { entity: unknown }).entity,
    );
    const refusal = await apiValidationPipe
      .transform({ endUserIp: 'x', admin: 1 }, { type: 'body', metatype: StartSessionDto })
      .catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(ValidationProblemException);
    expect((refusal as ValidationProblemException).errors.map((e) => e.pointer).sort()).toEqual(['/admin', '/endUserIp']);
  });
});
