/**
 * I10, damage: a file with truncation or garbage injected loads without crashing, recovers
 * every intact line, reports the damaged ones, and the next append yields a valid file.
 */
import type { AgentMessage } from "@pi-sessions/core";
import type { SessionHarness } from "./harness.js";
import { jsonEqual, preview } from "./json.js";
import {
  type AppendableSession,
  type DiagnosticView,
  describeError,
  type EntryView,
  guard,
  type Violation,
  violation,
} from "./types.js";

/** A damaged file and what a loader must make of it (a `DamagedSession` qualifies). */
export interface DamageCase {
  readonly jsonl: string;
  /** The entries that must be recovered, in file order. */
  readonly entries: readonly EntryView[];
  /** Diagnostics that must be reported (kind, line, entry); omit to skip the report check. */
  readonly expected?: readonly { kind: string; line: number; entryId?: string }[];
}

/** Options of {@link checkI10DamageRecovery}. */
export interface DamageCheckOptions {
  /** The message appended after loading (default: a short user message). */
  message?: AgentMessage;
}

const DEFAULT_MESSAGE: AgentMessage = {
  role: "user",
  content: "appended after damage",
  timestamp: Date.UTC(2025, 0, 1),
};

const key = (d: { kind: string; line?: number; entryId?: string }): string =>
  `${d.line ?? "?"}:${d.kind}:${d.entryId ?? ""}`;

/** Compares reported diagnostics with the expected ones, as multisets. */
function compareReports(
  reported: readonly DiagnosticView[],
  expected: readonly { kind: string; line: number; entryId?: string }[],
  when: string,
  out: Violation[],
): void {
  const left = new Map<string, number>();
  for (const d of reported) left.set(key(d), (left.get(key(d)) ?? 0) + 1);
  for (const e of expected) {
    const n = left.get(key(e)) ?? 0;
    if (n === 0) {
      out.push(
        violation("I10", `${when}: ${e.kind} was not reported`, {
          line: e.line,
          entryId: e.entryId,
        }),
      );
    } else left.set(key(e), n - 1);
  }
  for (const d of reported) {
    if ((left.get(key(d)) ?? 0) > 0) {
      left.set(key(d), (left.get(key(d)) ?? 0) - 1);
      out.push(
        violation("I10", `${when}: unexpected ${d.kind} reported`, {
          line: d.line,
          entryId: d.entryId,
        }),
      );
    }
  }
}

/**
 * I10 for one damaged file. Loading must not throw, must recover exactly `damaged.entries`
 * (leaf: the last of them), and, when `expected` is given, report exactly those diagnostics
 * through `getLoadDiagnostics()` (an implementation without it cannot report damage: that is
 * a violation). With a file harness, one message is then appended: the file must keep the
 * damaged text as it was (append-only), and reloading it must give the recovered entries plus
 * the new one (a child of the old leaf) with the same diagnostics.
 */
export function checkI10DamageRecovery<S extends AppendableSession>(
  harness: SessionHarness<S>,
  damaged: DamageCase,
  options: DamageCheckOptions = {},
): Violation[] {
  return guard("I10", (out) => {
    let session: S;
    try {
      session = harness.load(damaged.jsonl);
    } catch (error) {
      out.push(violation("I10", `loading the damaged file threw ${describeError(error)}`));
      return;
    }
    const recovered = session.getEntries();
    if (!jsonEqual(recovered, damaged.entries)) {
      out.push(
        violation(
          "I10",
          `recovered ${recovered.length} entries, expected ${damaged.entries.length}: ${preview(recovered.map((e) => e.id))}`,
        ),
      );
    }
    const leaf = damaged.entries[damaged.entries.length - 1]?.id ?? null;
    if (session.getLeafId() !== leaf) {
      out.push(
        violation("I10", `the leaf is ${session.getLeafId()}, not the last intact entry ${leaf}`),
      );
    }
    if (damaged.expected) {
      if (!session.getLoadDiagnostics) {
        // Without the API nothing can be reported: a violation only when something must be.
        if (damaged.expected.length > 0)
          out.push(
            violation("I10", "the damage is not reported: the session has no getLoadDiagnostics()"),
          );
      } else compareReports(session.getLoadDiagnostics(), damaged.expected, "load", out);
    }
    if (!harness.withFile) return;
    const message = options.message ?? DEFAULT_MESSAGE;
    const written = harness.withFile(damaged.jsonl, (s) => {
      s.appendMessage(message);
    }).text;
    if (!written.startsWith(damaged.jsonl)) {
      out.push(violation("I10", "the append rewrote or lost part of the damaged file"));
    }
    const reloaded = harness.load(written);
    const after = reloaded.getEntries();
    const added = after[after.length - 1] as (EntryView & { message?: unknown }) | undefined;
    if (
      after.length !== damaged.entries.length + 1 ||
      !jsonEqual(after.slice(0, -1), damaged.entries)
    ) {
      out.push(
        violation(
          "I10",
          `after the append, reloading gives ${after.length} entries, expected ${damaged.entries.length + 1}`,
        ),
      );
    } else if (!added || added.parentId !== leaf || !jsonEqual(added.message, message)) {
      out.push(
        violation("I10", `the appended entry is not the message as a child of ${leaf}`, {
          entryId: added?.id,
        }),
      );
    }
    if (damaged.expected && reloaded.getLoadDiagnostics) {
      compareReports(reloaded.getLoadDiagnostics(), damaged.expected, "after append", out);
    }
  });
}
