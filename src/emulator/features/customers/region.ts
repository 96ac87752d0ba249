/**
 * What a customer's region asks of it: in an SCA region (src/service/sca-magic.ts) its email and
 * phone are verified before KYC (contact-verification/) and its money moves need SCA (sca/).
 */
import { SCA_REGIONS } from '../../../service/index.js';
import type { CustomerRec } from './customers.js';

export const needsContactVerification = (region: string | undefined): boolean =>
  region !== undefined && SCA_REGIONS.includes(region);

export const needsSca = (customer: Pick<CustomerRec, 'region'> | undefined): boolean =>
  needsContactVerification(customer?.region);
