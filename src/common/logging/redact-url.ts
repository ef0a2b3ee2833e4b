// Query parameters that carry credentials (docs/api.md allows `?key=` for experiments).
const SECRET_PARAMS = /([?&](?:key|api_key|token|t)=)[^&#]*/gi;

export const redactUrl = (url: string): string => url.replace(SECRET_PARAMS, '$1[redacted]');
