/**
 * An invalid append of a registered customType changes nothing: not the entries, not the
 * leaf, not one byte of the session file, and no event fires. Random invalid payloads
 * (any JSON that does not read as a tally or note) interleaved with valid appends on a
 * persisted session.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createDeterministicEnv, EntryRejectedError, SessionManager } from "@pi-sessions/core";
import { decodePayload, installPlugins } from "@pi-sessions/plugins";
import { tempDir } from "@pi-sessions/test-utils";
import fc from "fast-check";
import { isLeft } from "fp-ts/lib/Either.js";
import { describe, expect, it } from "vitest";
import { assistant, fcParams, note, tally, tallyPlugin, user } from "./plugin-fixtures.js";

const root = tempDir("plugins-invalid-");

type Step =
  | { kind: "valid"; amount: number }
  | { kind: "badTally"; data: unknown }
  | { kind: "badNote"; details: unknown };

const badTally = fc.jsonValue().filter((data) => isLeft(decodePayload(tally, data)));
const badNote = fc
  .jsonValue()
  .filter((details) => isLeft(decodePayload(note, { content: "c", details })));

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant("valid" as const), amount: fc.integer() }),
  fc.record({ kind: fc.constant("badTally" as const), data: badTally }),
  fc.record({ kind: fc.constant("badNote" as const), details: badNote }),
);

let run = 0;

describe("invalid appends change nothing", () => {
  it(`entries, leaf, file bytes and events stay as they were (${fcParams(200).numRuns} runs)`, () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), (steps) => {
        const dir = join(root, `run-${run++}`);
        const sm = SessionManager.create("/tmp/plugins", dir, {
          env: createDeterministicEnv({ seed: run }),
        });
        const host = installPlugins(sm, [tallyPlugin]);
        sm.appendMessage(user("hi"));
        sm.appendMessage(assistant("yo")); // the file exists from here on
        const file = sm.getSessionFile() as string;
        const events: string[] = [];
        sm.events.on("*", (type) => events.push(type));
        for (const s of steps) {
          if (s.kind === "valid") {
            host.appendCustom(tally, { amount: s.amount, tag: "ok" });
            continue;
          }
          const bytes = readFileSync(file);
          const entries = sm.getEntries();
          const leaf = sm.getLeafId();
          const eventCount = events.length;
          const attempt =
            s.kind === "badTally"
              ? () => sm.appendCustomEntry("tally", s.data)
              : () => sm.appendCustomMessageEntry("note", "c", false, s.details);
          expect(attempt).toThrow(EntryRejectedError);
          expect(readFileSync(file).equals(bytes)).toBe(true);
          expect(sm.getEntries()).toEqual(entries);
          expect(sm.getLeafId()).toBe(leaf);
          expect(events.length).toBe(eventCount);
        }
        // Whatever was refused, the file still reopens to exactly the accepted entries.
        sm.close();
        const reopened = SessionManager.open(file);
        expect(reopened.getEntries()).toEqual(sm.getEntries());
        expect(reopened.getLoadDiagnostics()).toEqual([]);
        reopened.close();
      }),
      fcParams(200),
    );
  });
});
