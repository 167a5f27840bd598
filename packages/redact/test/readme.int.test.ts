/**
 * The README's example runs as written: the report it shows is what `redactSession` and
 * `formatReport` print for the session it describes (a prompt with a GitHub token, a tool
 * result that read a `.env` file), and the README's "after" line is the redacted line.
 */
import { readFileSync } from "node:fs";
import { formatReport, redactSession } from "@pi-sessions/redact";
import {
  LEAKY_AWS_SECRET,
  LEAKY_GITHUB_TOKEN,
  leakySessionJsonl,
} from "@pi-sessions/test-utils/secrets";
import { describe, expect, it } from "vitest";

/** The README's session: the token in the prompt, a tool result that read a `.env` file. */
const ENV = `GITHUB_TOKEN=${LEAKY_GITHUB_TOKEN}\nAWS_ACCESS_KEY_ID=AKIA2E0A8F3B244C9986\nAWS_SECRET_ACCESS_KEY=${LEAKY_AWS_SECRET}\nDATABASE_URL=postgres://acme:S3cr3tPassw0rd@db.acme.internal:5432/acme\n`;

describe("README", () => {
  it("shows the report and the redacted line the example produces", async () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const { text, report } = await redactSession(leakySessionJsonl({ toolOutput: ENV }));
    expect(readme).toContain(`\`\`\`text\n${formatReport(report, "session.jsonl")}\`\`\``);
    const after = JSON.stringify(JSON.parse(text.split("\n")[2] as string).message.content[0].text);
    expect(readme).toContain(`…"text":${after}…`);
  });
});
