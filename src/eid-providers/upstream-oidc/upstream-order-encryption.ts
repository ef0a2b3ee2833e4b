// Each encrypted column binds its order and purpose, so a value copied elsewhere fails to decrypt.
export const secretsAad = (orderRef: string) => `upstream_oidc_orders.secrets_enc:${orderRef}`;
export const returnUrlAad = (orderRef: string) => `upstream_oidc_orders.return_url_enc:${orderRef}`;
export const completionAad = (orderRef: string) => `upstream_oidc_orders.completion_enc:${orderRef}`;
