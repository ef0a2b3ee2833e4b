import { QueryFailedError } from 'typeorm';
import { errorForLog } from './error-for-log.js';

describe(errorForLog.name, () => {
  it("should keep a driver error's class, message and stack, never its query or parameters", () => {
    const driverError = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), { code: '23505' });
    const error = new QueryFailedError('INSERT INTO users (email) VALUES ($1)', ['someone@example.com'], driverError);
    const logged = errorForLog(error);
    expect(Object.keys(logged).sort()).toEqual(['message', 'stack', 'type']);
    expect(logged.type).toBe('QueryFailedError');
    expect(JSON.stringify(logged)).not.toMatch(/someone@example\.com|INSERT INTO/);
  });

  it('should say nothing of a thrown non-Error value', () => {
    expect(errorForLog({ password: 'x' })).toEqual({ type: 'object', message: 'a non-Error value was thrown' });
  });
});
