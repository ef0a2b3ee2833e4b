import { ValidationPipe } from '@nestjs/common';
import { ValidationProblemException } from '../../common/problem-details/validation-problem.exception.js';
import { CreateWebhookEndpointDto } from './create-webhook-endpoint.dto.js';
import { UpdateWebhookEndpointDto } from './update-webhook-endpoint.dto.js';

// The application's own pipe settings (app.module.ts), so these are the answers clients get.
const pipe = new ValidationPipe({
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  exceptionFactory: (errors) => ValidationProblemException.fromClassValidator(errors),
});
const validate = (metatype: new () => object, value: unknown) => pipe.transform(value, { type: 'body', metatype });
const pointersOf = (promise: Promise<unknown>) =>
  promise.then(
    () => [],
    (error: ValidationProblemException) => [...new Set(error.errors.map((e) => e.pointer))],
  );

describe('Webhook request bodies', () => {
  it('should accept a minimal and a full endpoint', async () => {
    await expect(validate(CreateWebhookEndpointDto, { url: 'https://rp.example/hook' })).resolves.toEqual({
      url: 'https://rp.example/hook',
    });
    const full = { url: 'https://rp.example/hook', eventTypes: ['auth.session.failed'], environment: 'live', description: 'Orders' };
    await expect(validate(CreateWebhookEndpointDto, full)).resolves.toEqual(full);
  });

  it.each([
    [{}, ['/url']],
    [{ url: 42 }, ['/url']],
    [{ url: 'https://rp.example/' + 'x'.repeat(2048) }, ['/url']],
    [{ url: 'https://rp.example/', eventTypes: [] }, ['/eventTypes']],
    [{ url: 'https://rp.example/', eventTypes: ['auth.session.started'] }, ['/eventTypes']],
    [{ url: 'https://rp.example/', eventTypes: ['auth.session.failed', 'auth.session.failed'] }, ['/eventTypes']],
    [{ url: 'https://rp.example/', environment: 'prod' }, ['/environment']],
    [{ url: 'https://rp.example/', secret: 'whsec_mine' }, ['/secret']],
  ])('should refuse the endpoint %j', async (body, pointers) => {
    expect(await pointersOf(validate(CreateWebhookEndpointDto, body))).toEqual(pointers);
  });

  it('should let an update clear the description and toggle the endpoint', async () => {
    await expect(validate(UpdateWebhookEndpointDto, { description: null, enabled: false })).resolves.toEqual({
      description: null,
      enabled: false,
    });
    expect(await pointersOf(validate(UpdateWebhookEndpointDto, { enabled: 'yes' }))).toEqual(['/enabled']);
    expect(await pointersOf(validate(UpdateWebhookEndpointDto, { description: 7 }))).toEqual(['/description']);
  });
});
