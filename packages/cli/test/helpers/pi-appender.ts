/**
 * A pi process writing a session: pi 1.6.0's own SessionManager (the reference package, as pi
 * runs it: no lock, one O_APPEND write per entry) opens the file given as argv[2] and appends
 * argv[3] user messages, argv[4] ms apart, printing each new entry's id on its own line.
 * Run as a child by the sync tests, concurrently with `pi-sessions sync`.
 */

import { loadReference } from "@pi-sessions/test-utils/reference";

interface PiSessionManager {
  appendMessage(message: { role: "user"; content: string; timestamp: number }): string;
}
interface PiModule {
  SessionManager: { open(path: string): PiSessionManager };
}

const [path, count, gap] = process.argv.slice(2);
const pi = await loadReference<PiModule>();
const sm = pi.SessionManager.open(path as string);
for (let i = 0; i < Number(count); i++) {
  const id = sm.appendMessage({ role: "user", content: `appended ${i}`, timestamp: Date.now() });
  process.stdout.write(`${id}\n`);
  await new Promise((done) => setTimeout(done, Number(gap)));
}
