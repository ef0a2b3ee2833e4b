export const PLANS = ['free', 'pro', 'max', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

/** docs/api.md: each plan includes the features of the plans below it. */
export const PLAN_FEATURES: Record<Plan, readonly string[]> = {
  free: [],
  pro: ['pro'],
  max: ['pro', 'max'],
  enterprise: ['pro', 'max', 'enterprise'],
};

export function featuresOf(team: { plan: Plan; extraFeatures: string[] }): Set<string> {
  return new Set([...PLAN_FEATURES[team.plan], ...team.extraFeatures]);
}

/** Per-key limits a plan gives and allows; null is unlimited. */
export interface PlanKeyLimits {
  defaults: { perMinuteLimit: number | null; monthlyLimit: number | null };
  maxima: { perMinuteLimit: number | null; monthlyLimit: number | null };
  /** Active (not revoked) keys per team. */
  maxActiveKeys: number | null;
}

/** docs/security.md (plan limits): what a team member may set on the team's keys. */
export const PLAN_KEY_LIMITS: Record<Plan, PlanKeyLimits> = {
  free: {
    defaults: { perMinuteLimit: 60, monthlyLimit: 10_000 },
    maxima: { perMinuteLimit: 600, monthlyLimit: 100_000 },
    maxActiveKeys: 10,
  },
  pro: {
    defaults: { perMinuteLimit: 600, monthlyLimit: 1_000_000 },
    maxima: { perMinuteLimit: 6_000, monthlyLimit: 10_000_000 },
    maxActiveKeys: 100,
  },
  max: {
    defaults: { perMinuteLimit: 6_000, monthlyLimit: 10_000_000 },
    maxima: { perMinuteLimit: 60_000, monthlyLimit: 100_000_000 },
    maxActiveKeys: 1_000,
  },
  enterprise: {
    defaults: { perMinuteLimit: null, monthlyLimit: null },
    maxima: { perMinuteLimit: null, monthlyLimit: null },
    maxActiveKeys: null,
  },
};
