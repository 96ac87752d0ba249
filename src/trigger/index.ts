/** Trigger scenarios without a terminal: the scenario table, the option checks, and running one scenario. */
export { SCENARIOS, findScenario, UMA_SANDBOX_DOMAIN, type Area, type RecipeName, type Scenario } from './catalog.js';
export {
  checkInputs,
  inputProblems,
  withSet,
  type TriggerProblem,
  type RawInputs,
  type TriggerInput,
  type TriggerInputs,
} from './inputs.js';
export { RECIPE_INPUTS, type RecipeInputs } from './input-rules.js';
export { emulatorEventLog, type EventLogReader } from './events.js';
export {
  assertSandbox,
  isRunnable,
  recipeFor,
  runScenario,
  ProductionTokenError,
  type TriggerOptions,
  type TriggerReport,
} from './run.js';
