/**
 * The README's example runs as written: the report it shows is what `redactSession` and
 * `formatReport` print for the session it describes (a prompt with a GitHub token, a tool
 * result that read a `.env` file), and the README's "after" line is the redacted line.
 */
import { readFileSync } from "node:fs";
import { formatReport, redactSession } from "@pi-sessions/redact";
import { describe, expect, it } from "vitest";

const GHP = "ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNbVc";
const ENV = `GITHUB_TOKEN=${GHP}\nAWS_ACCESS_KEY_ID=AKIA2E0A8F3B244C9986\nAWS_SECRET_ACCESS_KEY=Kx8vT2mQ9pL4wR7nY1zB5cH3jF6gD0sA8eU2iO4q\nDATABASE_URL=postgres://acme:S3cr3tPassw0rd@db.acme.internal:5432/acme\n`;

/** The README's session. */
function readmeSession(): string {
  const lines = [
    {
      type: "session",
      version: 3,
      id: "0190a000-0000-7000-8000-0000000000aa",
      timestamp: "2026-01-01T00:00:00.000Z",
      cwd: "/home/alice/acme",
    },
    {
      type: "message",
      id: "a1b2c3d4",
      parentId: null,
      timestamp: "2026-01-01T00:00:01.000Z",
      message: { role: "user", content: `push with ${GHP} please`, timestamp: 1 },
    },
    {
      type: "message",
      id: "c3d4e5f6",
      parentId: "a1b2c3d4",
      timestamp: "2026-01-01T00:00:03.000Z",
      message: {
        role: "toolResult",
        toolCallId: "toolu_01",
        toolName: "bash",
        content: [{ type: "text", text: ENV }],
        isError: false,
        timestamp: 3,
      },
    },
  ];
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

describe("README", () => {
  it("shows the report and the redacted line the example produces", async () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    const { text, report } = await redactSession(readmeSession());
    expect(readme).toContain(`\`\`\`text\n${formatReport(report, "session.jsonl")}\`\`\``);
    const after = JSON.stringify(JSON.parse(text.split("\n")[2] as string).message.content[0].text);
    expect(readme).toContain(`…"text":${after}…`);
  });
});
