import { ValidationProblemException } from '../../common/problem-details/validation-problem.exception.js';
import { completedResult, initAuthRequestBody, initSignRequestBody, STATUS_MAPPING, type FrejaStartOptions } from './freja-order.js';

const ATTRIBUTES = [{ attribute: 'BASIC_USER_INFO' }, { attribute: 'SSN' }];
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

function pointers(build: () => unknown): string[] {
  try {
    build();
    return [];
  } catch (error) {
    if (error instanceof ValidationProblemException) return error.errors.map((e) => e.pointer);
    throw error;
  }
}

describe(initAuthRequestBody.name, () => {
  it('should default to INFERRED (a QR code) and EXTENDED, asking for the name and the personal number', () => {
    expect(initAuthRequestBody({})).toEqual({
      userInfoType: 'INFERRED',
      userInfo: 'N/A',
      minRegistrationLevel: 'EXTENDED',
      attributesToReturn: ATTRIBUTES,
    });
  });

  it('should send an SSN as Freja wants it: base64 of {country, ssn}', () => {
    const body = initAuthRequestBody({ userInfoType: 'SSN', userInfo: '199001012393', minRegistrationLevel: 'PLUS' });
    expect(JSON.parse(Buffer.from(body.userInfo, 'base64').toString('utf8'))).toEqual({ country: 'SE', ssn: '199001012393' });
    expect(body.minRegistrationLevel).toBe('PLUS');
  });

  it.each([
    [{ userInfoType: 'EMAIL', userInfo: 'frida@example.se' }, 'frida@example.se'],
    [{ userInfoType: 'PHONE', userInfo: '+46701234567' }, '+46701234567'],
  ])('should send %j as it is', (options, userInfo) => {
    expect(initAuthRequestBody(options).userInfo).toBe(userInfo);
  });

  it.each<[FrejaStartOptions, string[]]>([
    [{ userInfoType: 'UPI' }, ['/userInfoType']],
    [{ userInfoType: 'SSN' }, ['/userInfo']],
    [{ userInfoType: 'SSN', userInfo: '9001012393' }, ['/userInfo']],
    [{ userInfoType: 'EMAIL', userInfo: 'not-an-address' }, ['/userInfo']],
    [{ userInfoType: 'PHONE', userInfo: '0701234567' }, ['/userInfo']],
    [{ userInfo: 'frida@example.se' }, ['/userInfo']],
    [{ minRegistrationLevel: 'INFERRED' }, ['/minRegistrationLevel']],
    [{ userVisibleData: '# Hej', userVisibleDataFormat: 'simpleMarkdownV1' }, ['/userVisibleDataFormat']],
  ])('should refuse %j with a 400 naming the field', (options, expected) => {
    expect(pointers(() => initAuthRequestBody(options))).toEqual(expected);
  });
});

describe(initSignRequestBody.name, () => {
  it('should sign plain text as SIMPLE_UTF8_TEXT with a SIMPLE signature', () => {
    expect(initSignRequestBody({ userVisibleData: 'Jag godkänner avtalet' })).toEqual({
      userInfoType: 'INFERRED',
      userInfo: 'N/A',
      minRegistrationLevel: 'EXTENDED',
      attributesToReturn: ATTRIBUTES,
      dataToSignType: 'SIMPLE_UTF8_TEXT',
      dataToSign: { text: b64('Jag godkänner avtalet') },
      signatureType: 'SIMPLE',
    });
  });

  it('should pass the RP’s base64 userNonVisibleData as binaryData with an EXTENDED signature', () => {
    expect(initSignRequestBody({ userVisibleData: 'Avtal', userNonVisibleData: 'c2hhMjU2OmFiYw==' })).toMatchObject({
      dataToSignType: 'EXTENDED_UTF8_TEXT',
      dataToSign: { text: b64('Avtal'), binaryData: 'c2hhMjU2OmFiYw==' },
      signatureType: 'EXTENDED',
    });
  });

  it('should require the text and refuse markdown', () => {
    expect(pointers(() => initSignRequestBody({}))).toEqual(['/userVisibleData']);
    expect(pointers(() => initSignRequestBody({ userVisibleData: '*x*', userVisibleDataFormat: 'simpleMarkdownV1' }))).toEqual([
      '/userVisibleDataFormat',
    ]);
  });
});

describe('STATUS_MAPPING', () => {
  it('should map every non-approved status as docs/freja.md tabulates it', () => {
    expect(STATUS_MAPPING).toEqual({
      STARTED: { status: 'pending', hintCode: 'outstandingTransaction' },
      DELIVERED_TO_MOBILE: { status: 'pending', hintCode: 'started' },
      CANCELED: { status: 'failed', hintCode: 'userCancel' },
      REJECTED: { status: 'failed', hintCode: 'providerRejected' },
      RP_CANCELED: { status: 'failed', hintCode: 'cancelled' },
      EXPIRED: { status: 'failed', hintCode: 'expiredTransaction' },
    });
  });
});

describe(completedResult.name, () => {
  const attributes = { basicUserInfo: { name: 'Frida', surname: 'Frejasson' }, ssn: { ssn: '199001012393', country: 'SE' } };

  it('should give the user in BankID’s shape and keep the signed details as evidence', () => {
    expect(completedResult({ authRef: 'r', status: 'APPROVED', requestedAttributes: attributes }, 'jws')).toEqual({
      status: 'complete',
      completion: {
        user: { personalNumber: '199001012393', name: 'Frida Frejasson', givenName: 'Frida', surname: 'Frejasson' },
        evidence: { details: 'jws' },
      },
    });
  });

  it('should keep the user’s signature of a sign result', () => {
    const result = completedResult(
      { signRef: 'r', status: 'APPROVED', requestedAttributes: attributes, signatureData: { userSignature: 'sig' } },
      'jws',
    );
    expect(result.completion?.evidence).toEqual({ details: 'jws', userSignature: 'sig' });
  });

  it('should fail without a personal number rather than give a partial user', () => {
    expect(
      completedResult({ authRef: 'r', status: 'APPROVED', requestedAttributes: { basicUserInfo: attributes.basicUserInfo } }, 'jws'),
    ).toEqual({
      status: 'failed',
      hintCode: 'providerError',
    });
  });
});
