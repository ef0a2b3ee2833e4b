// Query parameters that carry credentials (SPEC 5 allows `?key=` for experiments).
const SECRET_PARAMS = /([?&](?:key|api_key|token|t)=)[^&#]*/gi;

export const redactUrl = (url: string): string => url.replace(SECRET_PARAMS, '$1[redacted]');
