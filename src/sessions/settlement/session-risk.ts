import { RISK_LEVELS, type RiskLevel } from '../../eid-providers/eid-provider.js';
import type { SessionTransition } from '../session-state.js';

/** The hint code of a completion the provider judged riskier than the key accepts (docs/api.md, "Risk"). */
export const RISK_TOO_HIGH = 'riskTooHigh';

const rank = (level: RiskLevel): number => RISK_LEVELS.indexOf(level);

/**
 * A completion above the session's maxRisk becomes a failure with hintCode riskTooHigh, so no user
 * reaches a poll, a webhook or the result token. A completion without a risk (the provider could
 * not tell) passes: the provider documents that it sometimes cannot judge, and refusing those would
 * refuse people at random (docs/api.md, "Risk").
 */
export function heldToMaxRisk(session: { maxRisk: RiskLevel | null }, transition: SessionTransition): SessionTransition {
  if (transition.kind !== 'complete' || !session.maxRisk) return transition;
  const risk = transition.completion.risk;
  if (risk === undefined || rank(risk) <= rank(session.maxRisk)) return transition;
  return { kind: 'fail', hintCode: RISK_TOO_HIGH };
}
