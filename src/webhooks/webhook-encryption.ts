// Associated data of the relay's ciphertexts: each binds a value to its row and column (see DataCipher).
export const secretAad = (endpointId: string) => `webhook_endpoints:${endpointId}:secret`;
export const previousSecretAad = (endpointId: string) => `webhook_endpoints:${endpointId}:previous_secret`;
export const payloadAad = (deliveryId: string) => `webhook_deliveries:${deliveryId}:payload`;
