/**
 * Plan wording of the dashboard. Plans (free, pro, studio, tiers) are a concept only where billing is
 * configured: on a studio's own server the team never reads a plan or tier name (issue 24), and a
 * feature an operator left off says so without one.
 */

/** Why a plan feature is off: the plan that has it with billing, else what the account lacks and who adds it. */
export function featureOffReason(o: { billing: boolean; feature: string; plan: string; current: string | undefined }): string {
  return o.billing
    ? `${o.feature} needs the ${o.plan} plan or higher (this account is on ${o.current ?? 'another plan'}).`
    : `This account does not have ${o.feature}: the server's operator can add it with glitchbox admin set-plan.`
}
