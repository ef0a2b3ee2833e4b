import { FrejaError } from './freja-client.js';
import { decideFrejaFailure, loggableMessage } from './freja-failures.js';

const api = (code: number | undefined, httpStatus = 422) => new FrejaError('api', 'x', { code, httpStatus });

describe(decideFrejaFailure.name, () => {
  it.each([1000, 1001, 1002, 1007, 1012, 2002, 3000, 3001, 3002, 3003, 3005, 3007])(
    'should answer 400 provider_rejected_request to code %i',
    (code) => {
      const { exception } = decideFrejaFailure(api(code));
      expect(exception).toMatchObject({ code: 'provider_rejected_request', options: { extensions: { providerErrorCode: code } } });
    },
  );

  it('should answer order_in_progress when Freja refuses a new transaction for the user (2000)', () => {
    expect(decideFrejaFailure(api(2000)).exception).toMatchObject({ code: 'order_in_progress' });
  });

  it.each([
    [api(0, 400), 'warn'],
    [api(1004), 'error'],
    [api(1005), 'error'],
    [api(1008), 'error'],
    [api(1010, 400), 'error'],
    [api(undefined, 503), 'error'],
    [new FrejaError('timeout', 'x'), 'warn'],
    [new FrejaError('network', 'x'), 'warn'],
    [new FrejaError('tls', 'x'), 'error'],
    [new FrejaError('protocol', 'x'), 'error'],
    [new Error('unexpected'), 'error'],
  ])('should answer 502 provider_unavailable to %s, logged at %s', (error, level) => {
    const decision = decideFrejaFailure(error);
    expect(decision.exception).toMatchObject({ code: 'provider_unavailable' });
    expect(decision.level).toBe(level);
  });
});

describe('loggableMessage', () => {
  it('should hide anything shaped like a personal number', () => {
    expect(loggableMessage('User 199001012393 not found')).toBe('User [digits] not found');
  });
});
