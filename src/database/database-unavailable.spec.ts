import { QueryFailedError } from 'typeorm';
import { isDatabaseUnavailable } from './database-unavailable.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

describe(isDatabaseUnavailable.name, () => {
  it.each([
    ['a refused connection', withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED')],
    ['a reset connection', withCode('read ECONNRESET', 'ECONNRESET')],
    ['a connection node-postgres saw end', new Error('Connection terminated unexpectedly')],
    ['a pool wait past its deadline', new Error('timeout exceeded when trying to connect')],
    ['a server shutting down (57P01)', withCode('terminating connection due to administrator command', '57P01')],
    ['a server starting up (57P03)', withCode('the database system is starting up', '57P03')],
    ['a connection exception (class 08)', withCode('connection failure', '08006')],
    [
      "TypeORM's wrapper of one",
      new QueryFailedError('SELECT 1', [], withCode('terminating connection due to administrator command', '57P01')),
    ],
  ])('should recognise %s', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', new QueryFailedError('INSERT', [], withCode('duplicate key value', '23505'))],
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['a non-error', 'text'],
    ['nothing', undefined],
  ])('should not take %s for an outage', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});
