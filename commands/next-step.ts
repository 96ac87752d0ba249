/** The command line that takes a NextStep the core suggests (src/next-step.ts). */
import type { NextStep } from '../src/next-step.js';
import { reauthCommand } from './auth-hints.js';

export function nextStepCommand(step: NextStep): string {
  switch (step.action) {
    case 'reveal-card':
      return `svc cards reveal ${step.cardId}`;
    case 'log-in':
      return reauthCommand(step.credentialId, step.type);
  }
}
