import {
  SessionConflictError,
  SessionLockedError,
  type SessionSwitchedEvent,
} from "@pi-sessions/core";
import { describe, expect, it } from "vitest";
import { forkLine } from "../../src/pi-launcher/second-writer.js";

const from =
  "/home/u/.pi/agent/sessions/--home-u-proj--/2026-01-01T10-00-00-000Z_01a24276-3e46-7652-9dc7-e9e5b7c34442.jsonl";
const to =
  "/home/u/.pi/agent/sessions/--home-u-proj--/2026-01-01T10-05-00-000Z_01a24280-aaaa-7bbb-8ccc-ddddeeeeffff.jsonl";

function forked(refusal: Error): SessionSwitchedEvent {
  return {
    reason: "forked",
    sessionId: "01a24280-aaaa-7bbb-8ccc-ddddeeeeffff",
    file: to,
    previousSessionId: "01a24276-3e46-7652-9dc7-e9e5b7c34442",
    previousFile: from,
    refusal,
  };
}

const locked = forked(
  new SessionLockedError(`${from}.lock`, {
    pid: 4242,
    host: "box",
    acquiredAt: "2026-01-01T10:00:00.000Z",
  }),
);

describe("the line a second pi says when it continues in a fork", () => {
  it("names the other pi's pid and both files in print and RPC modes (no width)", () => {
    expect(forkLine(locked)).toBe(
      `pi-sessions: another pi (pid 4242) is writing ${from}; this pi continues in a new session forked from it: ${to}`,
    );
    expect(forkLine(forked(new SessionConflictError(from, "10 bytes, expected 5")))).toBe(
      `pi-sessions: another process changed ${from}; this pi continues in a new session forked from it: ${to}`,
    );
  });

  it("fits a terminal row in the TUI: session ids, then short ids, never more than the width", () => {
    expect(forkLine(locked, 400)).toBe(forkLine(locked));
    expect(forkLine(locked, 180)).toBe(
      "pi-sessions: another pi (pid 4242) is writing session 01a24276-3e46-7652-9dc7-e9e5b7c34442; this pi continues in a new session forked from it: 01a24280-aaaa-7bbb-8ccc-ddddeeeeffff",
    );
    expect(forkLine(locked, 130)).toBe(
      "pi-sessions: another pi (pid 4242) is writing session 01a24276; continuing in its fork 01a24280-aaaa-7bbb-8ccc-ddddeeeeffff",
    );
    expect(forkLine(locked, 100)).toBe(
      "pi-sessions: another pi (pid 4242) is writing session 01a24276; continuing in its fork 01a24280",
    );
    for (const width of [20, 60, 80, 100, 120, 130, 180]) {
      expect(forkLine(locked, width).length).toBeLessThanOrEqual(width);
    }
  });

  it("short ids stay apart when both sessions were made within a minute (same 8 leading digits of a UUIDv7)", () => {
    const near = "/s/--p--/2026-01-01T10-00-30-000Z_01a24276-9f00-7aaa-8bbb-ccccddddeeee.jsonl";
    const line = forkLine({ ...locked, file: near }, 100);
    expect(line).toBe(
      "pi-sessions: another pi (pid 4242) is writing session 01a24276-3; continuing in its fork 01a24276-9",
    );
  });
});
