/**
 * Fake secrets of every kind the redactor's rule set detects, and a planter that writes them
 * into the free-text fields of generated sessions (`@pi-sessions/test-utils/secrets`).
 */
export {
  charsArb,
  type PlantedSecret,
  plantedSecretArb,
  rawSafeSecretArb,
  SECRET_KINDS,
} from "./fake-secrets.js";
export { type Planting, plant } from "./plant-secrets.js";
