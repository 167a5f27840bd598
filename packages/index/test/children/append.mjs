// A pi process writing a session: appends entries to the file named on the command line, each
// in two writes (so a reader can find half a line at the end), until it has written `count`.
import { appendFileSync } from "node:fs";

const [path, count = "200"] = process.argv.slice(2);
for (let i = 0; i < Number(count); i++) {
  const line = JSON.stringify({
    type: "message",
    id: `w${i}`,
    parentId: i === 0 ? null : `w${i - 1}`,
    timestamp: new Date(Date.UTC(2026, 1, 1, 0, 0, i)).toISOString(),
    message: {
      role: "user",
      content: [{ type: "text", text: `appended line ${i}` }],
      timestamp: 0,
    },
  });
  const cut = Math.floor(line.length / 2);
  appendFileSync(path, line.slice(0, cut));
  appendFileSync(path, `${line.slice(cut)}\n`);
}
