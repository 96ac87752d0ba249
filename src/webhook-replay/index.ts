/** Replay of the emulator's logged webhook events (emulator-only: the service has no resend). */
export { replayRequest, type ReplayInput, type ReplayRequest } from './request.js';
export {
  emulatorOnly,
  mayBeEmulator,
  replayEvents,
  REPLAY_PATH,
  type ReplayOutcome,
  type ReplayResult,
} from './replay.js';
export { resolveSince, sinceProblem, SINCE_FORMS } from './since.js';
