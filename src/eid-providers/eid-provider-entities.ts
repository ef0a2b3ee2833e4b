import { EudiOrder } from './eudi/eudi-order.entity.js';
import { SimulatorOrder } from './simulator/simulator-order.entity.js';
import { UpstreamOrder } from './upstream-oidc/upstream-order.entity.js';

/** The tables providers keep of their own (docs/providers.md): a provider with one adds its entity here. */
export const EID_PROVIDER_ENTITIES = [SimulatorOrder, UpstreamOrder, EudiOrder];
