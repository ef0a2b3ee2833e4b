import type { ApiKeyEnvironment } from '../../api-keys/api-key-format.js';
import type { EidChannel, EidOperation, StartOrderRequest } from '../../eid-providers/eid-provider.js';
import { providerStartOptionsOf } from '../../eid-providers/provider-start-options.dto.js';
import type { StartSessionBody } from './dto/start-session-body.js';

/** What the provider is asked for: the start body of any kind, with the returnUrl that carries our nonce. */
export function orderRequestOf(
  request: StartSessionBody,
  kind: { operation: EidOperation; channel: EidChannel },
  environment: ApiKeyEnvironment,
  returnUrl: string | undefined,
): StartOrderRequest {
  return {
    environment,
    ...kind,
    endUserIp: request.endUserIp,
    userVisibleData: request.userVisibleData,
    userVisibleDataFormat: request.userVisibleDataFormat,
    userNonVisibleData: request.userNonVisibleData,
    requirement: request.requirement,
    returnUrl,
    personalNumber: request.personalNumber,
    callInitiator: request.callInitiator,
    options: providerStartOptionsOf(request),
    userVisibleTransaction: request.userVisibleTransaction,
    riskFlags: request.riskFlags,
    web: request.web,
    app: request.app,
  };
}
