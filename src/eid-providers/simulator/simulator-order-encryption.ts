// Each encrypted column of simulator_orders binds its order (or ID card) and purpose, so a value copied elsewhere fails to decrypt.
export const secretAad = (orderRef: string) => `simulator_orders:${orderRef}:qr_start_secret`;
export const userAad = (orderRef: string) => `simulator_orders:${orderRef}:user`;
export const textAad = (orderRef: string) => `simulator_orders:${orderRef}:user_visible_data`;
export const textsAad = (orderRef: string) => `simulator_orders:${orderRef}:signed_texts`;
export const evidenceAad = (orderRef: string) => `simulator_orders:${orderRef}:evidence`;
export const transactionAad = (orderRef: string) => `simulator_orders:${orderRef}:transaction`;
