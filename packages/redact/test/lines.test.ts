/**
 * How a line is rewritten: escapes inside and around a secret, JSON carried as text, damaged
 * and unknown lines, byte order mark, CRLF, key order and number spellings, header and
 * structural fields, opaque payloads; and the regression for secretlint's AWS range.
 */
import { redactSession } from "@pi-sessions/redact";
import { describe, expect, it } from "vitest";

const GHP = "ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNbVc";
const AWS = "Kx8vT2mQ9pL4wR7nY1zB5cH3jF6gD0sA8eU2iO4q";
const HEADER =
  '{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}';
const session = (...lines: string[]) => `${[HEADER, ...lines].join("\n")}\n`;
const lineOf = async (line: string) => (await redactSession(session(line))).text.split("\n")[1];

describe("a line with a secret", () => {
  it("keeps key order, number spellings, whitespace and every other escape as written", async () => {
    const line = `{"z":1.50,"type":"custom", "id":"e1","a":"caf\\u00e9 \\/ ${GHP} \\t","n":-0,"parentId":null,"timestamp":"t","customType":"x"}`;
    expect(await lineOf(line)).toBe(
      `{"z":1.50,"type":"custom", "id":"e1","a":"caf\\u00e9 \\/ [REDACTED:github-token#1] \\t","n":-0,"parentId":null,"timestamp":"t","customType":"x"}`,
    );
  });

  it("finds a secret spelled with escapes and replaces the escapes with it", async () => {
    const spelled = `\\u0067hp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNbV\\u0063`;
    const line = `{"type":"custom","id":"e1","parentId":null,"timestamp":"t","customType":"x","data":"a ${spelled} b"}`;
    expect(await lineOf(line)).toBe(
      `{"type":"custom","id":"e1","parentId":null,"timestamp":"t","customType":"x","data":"a [REDACTED:github-token#1] b"}`,
    );
  });

  it('finds a password with a quote in it (a secret spanning `\\"`) in a URL', async () => {
    const line = JSON.stringify({
      type: "custom",
      id: "e",
      parentId: null,
      timestamp: "t",
      customType: "x",
      data: 'db at postgres://app:pa"ss9Wq2x@db.example.net:5432/app ok',
    });
    const out = (await lineOf(line)) as string;
    expect(out).not.toContain('pa\\"ss9Wq2x');
    expect(JSON.parse(out).data).toMatch(/^db at \[REDACTED:postgre-sql-connection#1\] ok$/);
  });

  it("redacts inside JSON carried as text and keeps the rest of that text byte for byte", async () => {
    const key = `-----BEGIN RSA PRIVATE KEY-----\nMIIE${"Ab3+".repeat(40)}\n-----END RSA PRIVATE KEY-----`;
    const body = JSON.stringify(
      { client_email: "ci@acme.iam", private_key: key, n: 1.0 },
      null,
      2,
    ).replace("1", "1.0");
    const line = JSON.stringify({
      type: "message",
      id: "m",
      parentId: null,
      timestamp: "t",
      message: {
        role: "toolResult",
        toolCallId: "c",
        toolName: "read",
        content: [{ type: "text", text: body }],
        isError: false,
        timestamp: 1,
      },
    });
    const out = (await lineOf(line)) as string;
    const text = JSON.parse(out).message.content[0].text as string;
    expect(text).toBe(body.replace(JSON.stringify(key).slice(1, -1), "[REDACTED:private-key#1]"));
  });

  it("gives one secret one placeholder across lines and numbers rules apart", async () => {
    const r = await redactSession(
      session(
        JSON.stringify({
          type: "custom",
          id: "a",
          parentId: null,
          timestamp: "t",
          customType: "x",
          data: `${GHP} AKIA2E0A8F3B244C9986`,
        }),
        JSON.stringify({
          type: "label",
          id: "b",
          parentId: "a",
          timestamp: "t",
          targetId: "a",
          label: `again ${GHP}`,
        }),
      ),
    );
    expect(r.text).toContain('"data":"[REDACTED:github-token#1] [REDACTED:aws-access-key-id#1]"');
    expect(r.text).toContain('"label":"again [REDACTED:github-token#1]"');
    expect(r.report.rules.map((x) => [x.rule, x.secrets, x.occurrences, x.entryIds])).toEqual([
      ["aws-access-key-id", 1, 1, ["a"]],
      ["github-token", 1, 2, ["a", "b"]],
    ]);
  });

  it("redacts every occurrence of a found secret, also where its rule would not see it", async () => {
    const r = await redactSession(
      session(
        JSON.stringify({
          type: "custom",
          id: "a",
          parentId: null,
          timestamp: "t",
          customType: "x",
          data: `the old key ${AWS} is revoked`,
        }),
        JSON.stringify({
          type: "custom",
          id: "b",
          parentId: "a",
          timestamp: "t",
          customType: "x",
          data: `AWS_SECRET_ACCESS_KEY=${AWS}`,
        }),
      ),
    );
    expect(r.text).not.toContain(AWS);
    expect(r.text).toContain("the old key [REDACTED:aws-secret-access-key#1] is revoked");
  });

  // Regression: secretlint 13.1.0 reports the AWS secret key's range from the start of
  // `AWS_SECRET_ACCESS_KEY=` with the key's length, which left the key's last 22 characters.
  it("redacts the whole AWS secret key, not the range secretlint reports", async () => {
    const line = JSON.stringify({
      type: "custom",
      id: "a",
      parentId: null,
      timestamp: "t",
      customType: "x",
      data: `AWS_SECRET_ACCESS_KEY=${AWS}`,
    });
    expect(await lineOf(line)).toContain(
      '"data":"AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret-access-key#1]"',
    );
  });
});

describe("lines that are not ordinary entries", () => {
  it("scans a damaged line as text and keeps it damaged, byte for byte otherwise", async () => {
    const torn = `{"type":"message","id":"x","message":{"content":"token ${GHP} and mo`;
    const r = await redactSession(
      session(torn, "not json at all ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNbVc!"),
    );
    const lines = r.text.split("\n");
    expect(lines[1]).toBe(
      `{"type":"message","id":"x","message":{"content":"token [REDACTED:github-token#1] and mo`,
    );
    expect(lines[2]).toBe("not json at all [REDACTED:github-token#1]!");
    expect(r.report.rules[0]?.lines).toEqual([2, 3]);
  });

  it("passes unknown entry types through, redacting their strings", async () => {
    const line = `{"type":"future_thing","id":"f","parentId":null,"timestamp":"t","payload":{"k":[1,2,{"s":"${GHP}"}]}}`;
    expect(await lineOf(line)).toBe(
      `{"type":"future_thing","id":"f","parentId":null,"timestamp":"t","payload":{"k":[1,2,{"s":"[REDACTED:github-token#1]"}]}}`,
    );
  });

  it("keeps a byte order mark and CRLF line ends", async () => {
    const text = `\ufeff${HEADER}\r\n{"type":"custom","id":"a","parentId":null,"timestamp":"t","customType":"x","data":"${GHP}"}\r\n`;
    const r = await redactSession(text);
    expect(r.text).toBe(text.replace(GHP, "[REDACTED:github-token#1]"));
  });

  it("never rewrites ids, parents, types, timestamps or references, nor link ids and image bytes", async () => {
    const line = JSON.stringify({
      type: "message",
      id: GHP,
      parentId: GHP,
      timestamp: GHP,
      message: {
        role: "assistant",
        content: [
          { type: "thinking", thinking: "t", thinkingSignature: GHP },
          { type: "toolCall", id: GHP, name: "bash", arguments: { cmd: GHP } },
          { type: "image", data: GHP, mimeType: "image/png" },
        ],
      },
    });
    const out = JSON.parse((await lineOf(line)) as string);
    expect([out.id, out.parentId, out.timestamp]).toEqual([GHP, GHP, GHP]);
    const [thinking, call, image] = out.message.content;
    expect([call.id, image.data]).toEqual([GHP, GHP]);
    expect(call.arguments.cmd).toBe("[REDACTED:github-token#1]");
    // A signature can carry reasoning text (OpenAI's reasoning items): it is scanned.
    expect(thinking.thinkingSignature).toBe("[REDACTED:github-token#1]");
  });
});
