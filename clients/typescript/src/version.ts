// The package's version, sent in the User-Agent; the e2e test checks it equals package.json's.
export const VERSION = '0.1.0';
