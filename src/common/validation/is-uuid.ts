// Any RFC 9562 layout, any case: ids from clients are checked before they reach a `uuid` column,
// where PostgreSQL would refuse the query with a 500 instead of the 404 a wrong id deserves.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const isUuid = (value: string): boolean => UUID.test(value);
