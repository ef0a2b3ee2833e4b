/** The client credentials of one environment; each `source` entry names the variable a value came from. */
export interface MutualTlsCredentials {
  source: { pfx: string; passphrase: string; cert: string; key: string; ca: string };
  pfx?: string;
  passphrase?: string;
  cert?: string;
  key?: string;
  ca?: string;
}
