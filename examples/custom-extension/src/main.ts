import { runDemo } from "./demo.js";

// `pnpm start`: the todo extension on an in-memory session (see README.md).
for (const line of runDemo()) console.log(line);
