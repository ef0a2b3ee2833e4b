import { ValidationPipe } from '@nestjs/common';
import { ValidationProblemException } from '../../../common/problem-details/validation-problem.exception.js';
import { base64LengthOf } from './sign-and-phone.validators.js';
import { StartPhoneAuthDto, StartPhoneSignDto } from './start-phone.dto.js';
import { StartSignDto } from './start-sign.dto.js';

// The application's own pipe settings (app.module.ts), so these are the answers clients get.
const pipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  exceptionFactory: (errors) => ValidationProblemException.fromClassValidator(errors),
});
const pointersOf = (metatype: new () => object, value: unknown) =>
  pipe.transform(value, { type: 'body', metatype }).then(
    () => [],
    (error: ValidationProblemException) => [...new Set(error.errors.map((e) => e.pointer))],
  );

const sign = { endUserIp: '192.0.2.10', userVisibleData: 'I agree to the terms' };
const phone = { personalNumber: '199001012393', callInitiator: 'RP' };

describe(base64LengthOf.name, () => {
  it.each([
    ['', 0],
    ['a', 4],
    ['abc', 4],
    ['abcd', 8],
    ['å', 4],
  ])('should measure %j as %i base64 characters', (text, length) => {
    expect(base64LengthOf(text)).toBe(length);
    expect(Buffer.from(text, 'utf8').toString('base64')).toHaveLength(length);
  });
});

describe('Sign and phone start bodies', () => {
  it('should accept minimal and full bodies', async () => {
    await expect(pointersOf(StartSignDto, sign)).resolves.toEqual([]);
    await expect(
      pointersOf(StartSignDto, {
        ...sign,
        userVisibleDataFormat: 'simpleMarkdownV1',
        userNonVisibleData: 'aGFzaA==',
        requirement: { pinCode: true },
        metadata: { o: 1 },
      }),
    ).resolves.toEqual([]);
    await expect(pointersOf(StartPhoneAuthDto, phone)).resolves.toEqual([]);
    await expect(pointersOf(StartPhoneAuthDto, { ...phone, callInitiator: 'user', userVisibleData: 'Hej' })).resolves.toEqual([]);
    await expect(pointersOf(StartPhoneSignDto, { ...phone, userVisibleData: 'Avtal', userNonVisibleData: 'AAAA' })).resolves.toEqual([]);
  });

  it('should hold the sign text to what encodes to 40,000 base64 characters', async () => {
    await expect(pointersOf(StartSignDto, { ...sign, userVisibleData: 'a'.repeat(30_000) })).resolves.toEqual([]);
    await expect(pointersOf(StartSignDto, { ...sign, userVisibleData: 'a'.repeat(30_001) })).resolves.toEqual(['/userVisibleData']);
    // Two UTF-8 bytes a character: 15,000 of them already encode to 40,000.
    await expect(pointersOf(StartPhoneSignDto, { ...phone, userVisibleData: 'å'.repeat(15_001) })).resolves.toEqual(['/userVisibleData']);
  });

  it('should hold userNonVisibleData to 200,000 characters of base64', async () => {
    await expect(pointersOf(StartSignDto, { ...sign, userNonVisibleData: 'A'.repeat(200_000) })).resolves.toEqual([]);
    await expect(pointersOf(StartSignDto, { ...sign, userNonVisibleData: 'A'.repeat(200_004) })).resolves.toEqual(['/userNonVisibleData']);
    await expect(pointersOf(StartSignDto, { ...sign, userNonVisibleData: 'not base64!' })).resolves.toEqual(['/userNonVisibleData']);
  });

  it.each([
    [StartSignDto, {}, ['/userVisibleData', '/endUserIp']],
    [StartSignDto, { ...sign, userVisibleData: '' }, ['/userVisibleData']],
    [StartSignDto, { ...sign, userVisibleDataFormat: 'html' }, ['/userVisibleDataFormat']],
    [StartPhoneAuthDto, {}, ['/personalNumber', '/callInitiator']],
    [StartPhoneAuthDto, { ...phone, personalNumber: '199001012394' }, ['/personalNumber']],
    [StartPhoneAuthDto, { ...phone, personalNumber: '9001012393' }, ['/personalNumber']],
    [StartPhoneAuthDto, { ...phone, callInitiator: 'rp' }, ['/callInitiator']],
    [StartPhoneAuthDto, { ...phone, endUserIp: '192.0.2.10' }, ['/endUserIp']],
    [StartPhoneAuthDto, { ...phone, userVisibleData: 'a'.repeat(1501) }, ['/userVisibleData']],
    [StartPhoneAuthDto, { ...phone, userNonVisibleData: 'AAAA' }, ['/userNonVisibleData']],
    [StartPhoneSignDto, phone, ['/userVisibleData']],
    [StartPhoneSignDto, { ...phone, userVisibleData: 'x', returnUrl: 'https://rp.example/' }, ['/returnUrl']],
  ] as const)('should refuse %p %j naming %j', async (dto, body, pointers) => {
    await expect(pointersOf(dto, body)).resolves.toEqual(pointers);
  });
});
