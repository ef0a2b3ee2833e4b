import { SimulatorOrder } from './simulator/simulator-order.entity.js';

/** The tables providers keep of their own (docs/providers.md): a provider with one adds its entity here. */
export const EID_PROVIDER_ENTITIES = [SimulatorOrder];
