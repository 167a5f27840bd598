import { piSwitchConfig } from "../../vitest.pi-switch.js";

// The example runs in pi's SDK over pi's SessionManager and over ours (see vitest.pi-switch.ts).
export default piSwitchConfig;
