/**
 * The pure format functions (SPEC §2, §8.6): `parseSessionEntries`, `migrateSessionEntries`
 * and `CURRENT_SESSION_VERSION`.
 */
import type { JsonObject } from "../../api-calls/manager-api.js";
import { jsonCopy } from "../../model/json.js";
import { equal, equalOrdered, ok } from "../assert.js";
import { at, entry, header, messageOf, userEntry, userMessage } from "../fixtures.js";
import type { Scenario } from "../types.js";

/** A v1 session: no version, no ids, a compaction keeping from record index 1. */
export function legacyV1(): JsonObject[] {
  return [
    { type: "session", id: "old", timestamp: at(0), cwd: "/work/project" },
    { type: "message", timestamp: at(1), message: userMessage("q1") },
    { type: "message", timestamp: at(2), message: userMessage("q2") },
    { type: "compaction", timestamp: at(3), summary: "S", firstKeptEntryIndex: 2, tokensBefore: 5 },
    {
      type: "message",
      timestamp: at(4),
      message: { role: "hookMessage", customType: "x", content: "c", display: true, timestamp: 4 },
    },
  ];
}

export const formatScenarios: Scenario[] = [
  {
    id: "format/parse",
    title:
      "parseSessionEntries trims, skips blank and malformed lines, tolerates CRLF, checks no header",
    spec: "§2.1, §8.6",
    needs: ["parseSessionEntries"],
    run({ module: M }) {
      const h = header();
      const a = userEntry("a", null, 1);
      const text = `  \n${JSON.stringify(h)}\r\n\n{"type":"mess\n   \n${JSON.stringify(a)}\r\n  `;
      equal(M.parseSessionEntries(text), [h, a], "records");
      equal(
        M.parseSessionEntries(JSON.stringify(a)),
        [a],
        "no header needed, no final newline needed",
      );
      equal(M.parseSessionEntries(""), [], "empty text");
    },
  },
  {
    id: "format/version",
    title: "CURRENT_SESSION_VERSION is 3",
    spec: "§2.3",
    needs: ["CURRENT_SESSION_VERSION"],
    run({ module: M }) {
      equal(M.CURRENT_SESSION_VERSION, 3, "CURRENT_SESSION_VERSION");
    },
  },
  {
    id: "format/migrate-v1",
    title:
      "v1 → v3 in place: ids, one linear chain, firstKeptEntryIndex → id, hookMessage → custom, key order",
    spec: "§2.4",
    needs: ["migrateSessionEntries"],
    run({ module: M }) {
      const records = legacyV1();
      M.migrateSessionEntries(records);
      const [h, ...es] = records as [JsonObject, ...JsonObject[]];
      equalOrdered(Object.keys(h), ["type", "id", "timestamp", "cwd", "version"], "header keys");
      equal(h.version, 3, "version");
      es.forEach((e, i) => {
        ok(
          typeof e.id === "string" && /^[0-9a-f]{8}$/.test(e.id),
          `entry ${i} has an 8-hex id (${String(e.id)})`,
        );
        equal(e.parentId, i === 0 ? null : es[i - 1]?.id, `entry ${i} parent`);
      });
      equal(new Set(es.map((e) => e.id)).size, es.length, "ids unique");
      const c = es[2] as JsonObject;
      equalOrdered(
        Object.keys(c),
        ["type", "timestamp", "summary", "tokensBefore", "id", "parentId", "firstKeptEntryId"],
        "compaction keys",
      );
      equal(c.firstKeptEntryId, es[1]?.id, "firstKeptEntryIndex 2 names the second entry");
      equal(messageOf(es[3]).role, "custom", "hookMessage renamed");
    },
  },
  {
    id: "format/migrate-v2",
    title: "v2 → v3 renames hookMessage to custom and changes nothing else",
    spec: "§2.4",
    needs: ["migrateSessionEntries"],
    run({ module: M }) {
      const hook = {
        role: "hookMessage",
        customType: "x",
        content: "c",
        display: false,
        timestamp: 1,
      };
      const records = [
        header({ version: 2 }),
        userEntry("a", null, 1),
        entry("message", "h", "a", 2, { message: hook }),
        userEntry("side", "a", 3),
      ];
      const expected = jsonCopy(records);
      (expected[0] as JsonObject).version = 3;
      messageOf(expected[2]).role = "custom";
      M.migrateSessionEntries(records);
      equalOrdered(records, expected, "migrated records");
    },
  },
  {
    id: "format/migrate-current-and-future",
    title: "versions 3 and 9 are left as they are; migrating twice equals migrating once",
    spec: "§2.3, §2.4",
    needs: ["migrateSessionEntries"],
    run({ module: M }) {
      for (const version of [3, 9]) {
        const records = [
          header({ version }),
          entry("message", "h", null, 1, { message: { role: "hookMessage", timestamp: 1 } }),
        ];
        const before = jsonCopy(records);
        M.migrateSessionEntries(records);
        equalOrdered(records, before, `version ${version}`);
      }
      const once = legacyV1();
      M.migrateSessionEntries(once);
      const twice = jsonCopy(once);
      M.migrateSessionEntries(twice);
      equalOrdered(twice, once, "idempotent");
    },
  },
];
