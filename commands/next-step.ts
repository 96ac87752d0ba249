/** The command line that takes a NextStep the core suggests (src/next-step.ts). */
import type { NextStep } from '../src/next-step.js';

export function nextStepCommand(step: NextStep): string {
  switch (step.action) {
    case 'reveal-card':
      return `svc cards reveal ${step.cardId}`;
  }
}
