// Each encrypted column binds its order and purpose, so a value copied elsewhere fails to decrypt.
export const secretsAad = (orderRef: string) => `eudi_orders.secrets_enc:${orderRef}`;
export const returnUrlAad = (orderRef: string) => `eudi_orders.return_url_enc:${orderRef}`;
export const completionAad = (orderRef: string) => `eudi_orders.completion_enc:${orderRef}`;
