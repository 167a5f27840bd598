/**
 * Secrets where a reviewer went looking for them (each a regression: every one of these
 * survived redaction before): in a provider signature that carries reasoning text, in members
 * named like provider payloads outside pi's message blocks, in JSON where the rule needs the
 * member name before the value, after a long `AWS_SECRET_ACCESS_KEY   =   `, overlapping
 * another detector's finding, spelled with escapes in a damaged line, and six levels deep in
 * JSON carried as text.
 */
import { redactSession } from "@pi-sessions/redact";
import { describe, expect, it } from "vitest";

const GHP = "ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNbVc";
const GHP2 = "ghp_Qa1Ws2Ed3Rf4Tg5Yh6Uj7Ik8Ol9Pz0XcVbNm";
const AWS = "Kx8vT2mQ9pL4wR7nY1zB5cH3jF6gD0sA8eU2iO4q";
const HEADER = '{"type":"session","version":3,"id":"s1","timestamp":"t","cwd":"/w"}';
const entry = (fields: object) =>
  JSON.stringify({ type: "custom", id: "e1", parentId: null, timestamp: "t", ...fields });
const message = (m: object) =>
  JSON.stringify({ type: "message", id: "m1", parentId: null, timestamp: "t", message: m });
const redactLine = async (line: string, options = {}) => {
  const r = await redactSession(`${HEADER}\n${line}\n`, options);
  return { out: r.text.split("\n")[1] as string, report: r.report };
};

describe("provider payloads", () => {
  it("redacts the reasoning an OpenAI signature carries as JSON, beside the thinking text", async () => {
    // pi-ai's openai-responses stores the whole reasoning item in `thinkingSignature`: the
    // summary (copied to `thinking`) and, when sent, the raw reasoning (not copied anywhere).
    const item = {
      type: "reasoning",
      id: "rs_1",
      summary: [{ type: "summary_text", text: `use ${GHP}` }],
      content: [{ type: "reasoning_text", text: `raw ${GHP2}` }],
      encrypted_content: "gAAAAABo",
    };
    const line = message({
      role: "assistant",
      content: [
        { type: "thinking", thinking: `use ${GHP}`, thinkingSignature: JSON.stringify(item) },
      ],
    });
    const { out } = await redactLine(line);
    expect(out).not.toContain(GHP);
    expect(out).not.toContain(GHP2);
    const block = JSON.parse(out).message.content[0];
    expect(block.thinking).toBe("use [REDACTED:github-token#1]");
    const signature = JSON.parse(block.thinkingSignature);
    expect(signature.summary[0].text).toBe("use [REDACTED:github-token#1]");
    expect(signature.content[0].text).toBe("raw [REDACTED:github-token#2]");
    expect(signature.encrypted_content).toBe("gAAAAABo");
  });

  it("leaves base64 signatures to the rules: the entropy detector does not take them", async () => {
    const signature =
      "EqQBCkYIBxgCKkCu9Zx3r8Lq2Wm5Np7Tv4Ys1Ua6Ob0Ic3Hd8Je2Kf5Lg9Mh1Ni4Pj7Qk0Rl3Sm6Tn";
    const line = message({
      role: "assistant",
      content: [{ type: "thinking", thinking: "t", thinkingSignature: signature }],
    });
    const { out } = await redactLine(line, { entropy: true });
    expect(JSON.parse(out).message.content[0].thinkingSignature).toBe(signature);
  });

  it("scans members named like payloads outside pi's message blocks (extension data)", async () => {
    const line = entry({
      customType: "x",
      data: {
        toolCallId: GHP,
        shot: { type: "image", data: GHP },
        call: { type: "toolCall", id: GHP },
      },
    });
    const { out } = await redactLine(line);
    expect(out).not.toContain(GHP);
  });
});

describe("rules that need the member name before the value", () => {
  it("finds an AWS secret key in a JSON file the agent read (pretty-printed)", async () => {
    const file = JSON.stringify(
      { aws_access_key_id: "AKIA2E0A8F3B244C9986", aws_secret_access_key: AWS },
      null,
      2,
    );
    const line = message({
      role: "toolResult",
      toolCallId: "c1",
      toolName: "read",
      content: [{ type: "text", text: file }],
      isError: false,
      timestamp: 1,
    });
    const { out } = await redactLine(line);
    expect(out).not.toContain(AWS);
    const text = JSON.parse(out).message.content[0].text as string;
    expect(text).toBe(
      file
        .replace(AWS, "[REDACTED:aws-secret-access-key#1]")
        .replace("AKIA2E0A8F3B244C9986", "[REDACTED:aws-access-key-id#1]"),
    );
  });

  it("finds `SecretAccessKey` in `aws sts` output and in a tool call's arguments", async () => {
    const sts = JSON.stringify({
      Credentials: { AccessKeyId: "ASIA2E0A8F3B244C9986", SecretAccessKey: AWS },
    });
    const { out } = await redactLine(entry({ customType: "x", data: sts }));
    expect(out).not.toContain(AWS);
    const call = message({
      role: "assistant",
      content: [
        {
          type: "toolCall",
          id: "t1",
          name: "bash",
          arguments: { env: { AWS_SECRET_ACCESS_KEY: AWS } },
        },
      ],
    });
    const args = await redactLine(call);
    expect(args.out).toContain('"AWS_SECRET_ACCESS_KEY":"[REDACTED:aws-secret-access-key#1]"');
  });

  it("lets a user pattern written against JSON find the value", async () => {
    const line = entry({ customType: "x", data: { db: { password: "hunter2-Xy9" } } });
    const { out } = await redactLine(line, {
      patterns: [{ name: "password", regex: /"password":\s*"([^"]+)"/ }],
    });
    expect(out).toContain('"password":"[REDACTED:password#1]"');
  });
});

describe("the AWS secret key after a long name", () => {
  it("redacts the key, not the 40 characters from the start of the name", async () => {
    const data = `AWS_SECRET_ACCESS_KEY                         =  ${AWS}\n`;
    const { out } = await redactLine(entry({ customType: "x", data }));
    expect(JSON.parse(out).data).toBe(data.replace(AWS, "[REDACTED:aws-secret-access-key#1]"));
  });
});

describe("secrets that overlap", () => {
  it("replaces the union of overlapping secrets (an entropy run ending inside an AWS key)", async () => {
    // The entropy detector's run is `AWS_SECRET_ACCESS_KEY=<key up to its "/">`; the AWS rule's
    // secret is the key. Replacing the leftmost alone left the key's tail after the `/`.
    const key = "Kx8vT2mQ9pL4wR7nY1zB5cH3/jF6gD0sA8eU2iO4";
    const { out } = await redactLine(
      entry({ customType: "x", data: `export AWS_SECRET_ACCESS_KEY=${key}` }),
      { entropy: true },
    );
    expect(out).not.toContain("jF6gD0sA8eU2iO4");
    expect(JSON.parse(out).data).toMatch(/^export \[REDACTED:[a-z-]+#1\]$/);
  });
});

describe("escapes where JSON cannot be parsed", () => {
  it("finds a secret a torn line spells with \\u escapes, also inside JSON carried as text", async () => {
    const spelled = `\\u0067${GHP.slice(1)}`;
    const torn = `{"type":"message","id":"x","message":{"content":"a ${spelled} b {\\"k\\":\\"\\\\u0067${GHP2.slice(1)}`;
    const r = await redactSession(`${HEADER}\n${torn}\n`);
    const out = r.text.split("\n")[1] as string;
    expect(out).toBe(
      `{"type":"message","id":"x","message":{"content":"a [REDACTED:github-token#1] b {\\"k\\":\\"[REDACTED:github-token#2]`,
    );
  });

  it("follows JSON carried as text at any depth, also where the secret is spelled with escapes", async () => {
    // Six levels of JSON in strings; at the deepest the secret's `g` is written `\u0067`.
    let text = JSON.stringify({ k: `\u0001${GHP.slice(1)}` }).replace("\\u0001", "\\u0067");
    for (let i = 0; i < 5; i++) text = JSON.stringify({ k: text });
    const { out } = await redactLine(entry({ customType: "x", data: text }));
    expect(out).not.toContain(GHP.slice(1));
    expect(out).toContain("[REDACTED:github-token#1]");
  });
});
