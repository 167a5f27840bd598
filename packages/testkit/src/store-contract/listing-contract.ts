/**
 * The listing part of the store contract: a store's `list(cwd)` keeps exactly the written
 * sessions whose header cwd matches by core's one rule (`cwdMatches`, no cwd matching none),
 * `listAll()` every written session and no pending one, newest activity first, and each info
 * is core's listing fold of what the store gives back for that session.
 */
import { deepStrictEqual, ok } from "node:assert/strict";
import { type SessionInfo, SessionManager } from "@pi-sessions/core";
import { cwdMatches, JsonlScanner, SessionInfoFold } from "@pi-sessions/core/internal";
import fc from "fast-check";
import { applyCommand, contractCommandArb } from "./contract-commands.js";
import { asJson, onStore, reread, settle } from "./contract-io.js";
import type { ContractStore, StoreContractCase, StoreContractTarget } from "./contract-target.js";

/** Working directories written in, some the same directory spelt twice. */
const WRITTEN_CWDS = ["/p/a", "/p/a/", "/p/b", "/p/./b", "/p/c/../a"];
/** Working directories listed, one of them no session's. */
const LISTED_CWDS = ["/p/a", "/p/b/", "/p/c", "/p/none"];

/** One session the case writes: its cwd, and whether it reaches its first message. */
const sessionArb = fc.record({
  cwd: fc.constantFrom(...WRITTEN_CWDS),
  written: fc.boolean(),
  more: fc.array(contractCommandArb, { maxLength: 3 }),
});

/**
 * The sessions of one run: the first always written, so that every run has a listing to get
 * wrong (fast-check's small early cases are often all unwritten, and a store that ignored the
 * cwd then passed 20 runs now and then). The empty store is checked before anything is written.
 */
const sessionsArb = fc
  .tuple(sessionArb, fc.array(sessionArb, { maxLength: 4 }))
  .map(([first, rest]) => [{ ...first, written: true }, ...rest]);

/** Core's listing fold of a session as the store reads it back, at `location`. */
async function foldedInfo(cs: ContractStore, location: string): Promise<unknown> {
  const { header, entries } = (await reread(cs, location)) as { header: unknown; entries: [] };
  const fold = new SessionInfoFold();
  const scanner = new JsonlScanner(fold);
  scanner.push([header, ...entries].map((r) => `${JSON.stringify(r)}\n`).join(""));
  scanner.end();
  return asJson(fold.finish(location, new Date(0)));
}

/** Infos in JSON's view, by path, and whether they come newest activity first. */
function byPath(infos: readonly SessionInfo[]): { sorted: unknown[]; newestFirst: boolean } {
  const times = infos.map((i) => i.modified.getTime());
  const newestFirst = times.every((t, k) => k === 0 || t <= (times[k - 1] as number));
  const sorted = [...infos].sort((a, b) => a.path.localeCompare(b.path)).map(asJson);
  return { sorted, newestFirst };
}

/** The listing case for `target` (each run on a fresh store of it). */
export function listingCase(
  target: StoreContractTarget,
  cwd: string,
  params: { readonly numRuns: number },
): StoreContractCase {
  return {
    name: `${target.name}: list(cwd) and listAll() give every written session by core's cwd rule, as core folds it (numRuns ${params.numRuns})`,
    run: () =>
      fc.assert(
        fc.asyncProperty(sessionsArb, async (sessions) => {
          await onStore(target, cwd, async (cs) => {
            const { list, listAll } = cs.store;
            ok(list && listAll, `${target.name} must list its sessions (list, listAll)`);
            deepStrictEqual(await listAll.call(cs.store), [], "an empty store lists nothing");
            deepStrictEqual(await list.call(cs.store, "/p/a"), [], "nor for a cwd");
            const written: { location: string; cwd: string }[] = [];
            for (const s of sessions) {
              const sm = SessionManager.withStore(cs.store, s.cwd);
              applyCommand(sm, { kind: "model", model: "listed?" });
              if (s.written) {
                applyCommand(sm, { kind: "user", text: `in ${s.cwd}` });
                for (const c of s.more) applyCommand(sm, c);
              }
              deepStrictEqual(await settle(sm), undefined);
              if (s.written) written.push({ location: sm.getSessionFile() as string, cwd: s.cwd });
              sm.close();
            }
            const truth = new Map<string, unknown>();
            for (const w of written) truth.set(w.location, await foldedInfo(cs, w.location));
            const expect = (keep: (w: { cwd: string }) => boolean) =>
              written
                .filter(keep)
                .map((w) => w.location)
                .sort((a, b) => a.localeCompare(b))
                .map((l) => truth.get(l));
            const all = byPath(await listAll.call(cs.store));
            ok(all.newestFirst, "listAll() is newest activity first");
            deepStrictEqual(
              all.sorted,
              expect(() => true),
            );
            for (const listed of LISTED_CWDS) {
              const some = byPath(await list.call(cs.store, listed));
              ok(some.newestFirst, `list(${listed}) is newest activity first`);
              deepStrictEqual(
                some.sorted,
                expect((w) => cwdMatches(w.cwd, listed, false)),
              );
            }
          })();
        }),
        params,
      ),
  };
}
