/** kyc.pending|rejected|unverified|approved: the kycStatus POST /customers answers for the magic fullName. */
import type { Scenario } from '../catalog.js';
import { pick, type Body, type TriggerContext } from '../context.js';
import { createIndividual } from './customers.js';

export async function individualKyc(ctx: TriggerContext, scenario: Scenario): Promise<Body> {
  const customer = await createIndividual(ctx, scenario.magic.value);
  return { status: customer.kycStatus, ...pick(customer, ['kycStatus']) };
}
