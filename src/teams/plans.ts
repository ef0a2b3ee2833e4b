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
