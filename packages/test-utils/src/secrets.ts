/**
 * Fake secrets of every kind the redactor's rule set detects, a planter that writes them
 * into the free-text fields of generated sessions, and the small leaky session of the READMEs
 * and CLI tests (`@pi-sessions/test-utils/secrets`).
 */
export {
  charsArb,
  type PlantedSecret,
  plantedSecretArb,
  rawSafeSecretArb,
  SECRET_KINDS,
} from "./fake-secrets.js";
export {
  LEAKY_AWS_SECRET,
  LEAKY_GITHUB_TOKEN,
  type LeakySessionOptions,
  leakySessionJsonl,
} from "./leaky-session.js";
export { type Planting, plant } from "./plant-secrets.js";
