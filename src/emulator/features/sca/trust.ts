/**
 * Beneficiary trust (`POST /customers/external-accounts/{id}/trust` and `/untrust`, each with its
 * `/confirm`): the start issues an SCA challenge, the confirm takes its proof and answers
 * `{trusted}`. A trusted external account needs no SCA on quotes to it (quotes/sca.ts) and cannot
 * be deleted (409 BENEFICIARY_TRUSTED). The account must be a customer's (a platform account has
 * no end user to authenticate: 404) whose region needs SCA (409 otherwise). Trusting a trusted
 * account, or untrusting one that is not, is 409 CONFLICT.
 */
import { conflict, invalidInput, notFound } from '../../kernel/errors.js';
import { Fields } from '../../kernel/fields.js';
import type { Req, Route } from '../../kernel/router.js';
import type { EmulatorContext } from '../../kernel/context.js';
import { callerMaySee } from '../accounts/caller.js';
import { customerOr404 } from '../customers/customers.js';
import { externalAccounts } from '../external-accounts/records.js';
import { checkNotLocked, checkProof, issueChallenge, readProof, renderChallenge } from './challenge.js';
import { profileOf, requireScaCustomer, saveProfile } from './profiles.js';

function beneficiary(emu: EmulatorContext, req: Req) {
  const id = req.params.id!;
  const account = emu.table(externalAccounts).get(id);
  if (!account?.customerId || !callerMaySee(req, account.customerId)) throw notFound('Customer external account', id);
  const customer = customerOr404(emu, account.customerId);
  requireScaCustomer(customer);
  return { account, profile: profileOf(emu, customer.id) };
}

function start(trust: boolean): Route {
  const verb = trust ? 'trust' : 'untrust';
  return {
    method: 'POST',
    path: `/customers/external-accounts/:id/${verb}`,
    permission: 'MANAGE',
    handler(req, emu) {
      const { account, profile } = beneficiary(emu, req);
      if (profile.trusted.includes(account.id) === trust)
        throw conflict(
          'CONFLICT',
          `External account ${account.id} is ${trust ? 'already' : 'not'} a trusted beneficiary`,
        );
      const challenge = issueChallenge(emu, profile, {
        purpose: trust ? 'TRUST_BENEFICIARY' : 'UNTRUST_BENEFICIARY',
        allowTotp: true,
      });
      profile.trustChange = { externalAccountId: account.id, trust, challenge };
      saveProfile(emu, profile);
      return { status: 200, body: { scaChallenge: renderChallenge(emu, profile, challenge) } };
    },
  };
}

function confirm(trust: boolean): Route {
  const verb = trust ? 'trust' : 'untrust';
  return {
    method: 'POST',
    path: `/customers/external-accounts/:id/${verb}/confirm`,
    permission: 'MANAGE',
    handler(req, emu) {
      const f = new Fields(req.json());
      const challengeId = f.raw('challengeId') === null ? undefined : f.string('challengeId');
      const proof = readProof(f);
      f.done();
      const { account, profile } = beneficiary(emu, req);
      checkNotLocked(emu, profile);
      const change = profile.trustChange;
      if (!change || change.externalAccountId !== account.id || change.trust !== trust)
        throw invalidInput([
          { field: 'code', message: `no ${verb} of ${account.id} was started: call POST …/${verb} first` },
        ]);
      if (challengeId !== undefined && challengeId !== change.challenge.id)
        throw invalidInput([
          { field: 'challengeId', message: `not the challenge of this ${verb} (${change.challenge.id})` },
        ]);
      checkProof(emu, profile, proof, {
        factors: change.challenge.availableFactors,
        ...(change.challenge.webauthnChallenge ? { webauthnChallenge: change.challenge.webauthnChallenge } : {}),
        expiresAtMs: change.challenge.expiresAtMs,
      });
      profile.trusted = trust ? [...profile.trusted, account.id] : profile.trusted.filter((id) => id !== account.id);
      delete profile.trustChange;
      saveProfile(emu, profile);
      return { status: 200, body: { trusted: trust } };
    },
  };
}

export const trustRoutes: Route[] = [start(true), confirm(true), start(false), confirm(false)];
