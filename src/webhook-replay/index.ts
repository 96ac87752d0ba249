/** Replay of the emulator's logged webhook events (emulator-only: the service has no resend). */
export {
  mayBeEmulator,
  replayEvents,
  REPLAY_PATH,
  type ReplayOutcome,
  type ReplayRequest,
  type ReplayResult,
} from './replay.js';
export { resolveSince, sinceProblem, SINCE_FORMS } from './since.js';
