/**
 * The small leaky session the redaction tests and READMEs use: a prompt with a GitHub token, a
 * tool result that printed credentials, and optionally a label on it. One definition, so the
 * redact package's README example and the CLI's `redact` tests describe the same session.
 */

/** The GitHub token in the prompt (a fake, shaped as GitHub's). */
export const LEAKY_GITHUB_TOKEN = "ghp_Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LmNbVc";

/** An AWS secret access key (a fake) for tool outputs. */
export const LEAKY_AWS_SECRET = "Kx8vT2mQ9pL4wR7nY1zB5cH3jF6gD0sA8eU2iO4q";

/** Options of {@link leakySessionJsonl}. */
export interface LeakySessionOptions {
  /** The text the bash tool returned (default: `AWS_SECRET_ACCESS_KEY=<key>\n`). */
  readonly toolOutput?: string;
  /** A label on the tool result, as a fourth line (default: none). */
  readonly label?: string;
}

/**
 * The session as JSONL: header (cwd `/home/alice/acme`), user message `a1b2c3d4` asking to push
 * with {@link LEAKY_GITHUB_TOKEN}, tool result `c3d4e5f6` holding `toolOutput`, then the label
 * `d4e5f6a7` when asked for.
 */
export function leakySessionJsonl(options: LeakySessionOptions = {}): string {
  const lines: unknown[] = [
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
      message: { role: "user", content: `push with ${LEAKY_GITHUB_TOKEN} please`, timestamp: 1 },
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
        content: [
          {
            type: "text",
            text: options.toolOutput ?? `AWS_SECRET_ACCESS_KEY=${LEAKY_AWS_SECRET}\n`,
          },
        ],
        isError: false,
        timestamp: 3,
      },
    },
  ];
  if (options.label !== undefined) {
    lines.push({
      type: "label",
      id: "d4e5f6a7",
      parentId: "c3d4e5f6",
      timestamp: "2026-01-01T00:00:04.000Z",
      targetId: "c3d4e5f6",
      label: options.label,
    });
  }
  return `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}
