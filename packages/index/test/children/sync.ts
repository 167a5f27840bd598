// A second pi-sessions process: opens the index named on the command line and brings it up to
// date with a sessions root, several times over, printing what each run did as JSON lines.
import { openSessionIndex } from "../../src/index.js";

const [file, root, rounds = "3"] = process.argv.slice(2) as [string, string, string?];
const index = openSessionIndex({ file, onNotice: (m) => console.error(m) });
for (let i = 0; i < Number(rounds); i++) {
  const result = await index.sync(root);
  console.log(JSON.stringify(result));
}
index.close();
