/**
 * The real `pi --mode rpc`, through `pi-sessions pi` and alone, on one script with the scripted
 * model: prompts with a tool call, a session name, a thinking level, a compaction, a fork from
 * an earlier prompt, a clone, a new session, a switch back, and what a client reads afterwards
 * (`get_tree`, `get_entries`, `get_messages`, `get_state`, `export_html`). Every file written
 * and every answer must equal pi's after numbering ids (times erased), apart from SPEC §12
 * [Fix] rows (L4).
 */

import { tempDir } from "@pi-sessions/test-utils";
import { describe, expect, it } from "vitest";
import { compareFiles, judge, normaliseSide, sessionFilesOf } from "./compare-files.js";
import { commonPiArgs, makeSide, type PiSide } from "./pi-sides.js";
import { type RpcRecord, RpcSession } from "./rpc-client.js";

/** What a response says, without the command id (the same on both sides anyway). */
const answer = (r: RpcRecord) => JSON.stringify({ ...r, id: undefined });

/** Runs the script on one side; returns pi's answers as text. */
async function rpcFlow(side: PiSide): Promise<string[]> {
  const rpc = new RpcSession(side, commonPiArgs());
  const answers: string[] = [];
  const send = async (command: Record<string, unknown> & { type: string }) => {
    const r = await rpc.send(command);
    expect(r.success, `${side.kind}: ${command.type}: ${JSON.stringify(r)}`).toBe(true);
    answers.push(answer(r));
    return r.data as Record<string, unknown>;
  };
  const prompt = async (message: string) => answers.push(answer(await rpc.prompt(message)));

  const first = (await send({ type: "get_state" })).sessionFile as string;
  await prompt("Read notes.txt.");
  await send({ type: "set_session_name", name: "RPC flow" });
  await send({ type: "set_thinking_level", level: "high" });
  await prompt("What next?");
  await send({ type: "compact" });
  await prompt("After the compaction.");
  const forkable = (await send({ type: "get_fork_messages" })).messages as { entryId: string }[];
  await send({ type: "fork", entryId: forkable[1]?.entryId });
  await prompt("In the fork.");
  await send({ type: "clone" });
  await send({ type: "new_session" });
  await prompt("A new session.");
  await send({ type: "switch_session", sessionPath: first });
  for (const type of ["get_tree", "get_entries", "get_messages", "get_state"]) await send({ type });
  await send({ type: "export_html", outputPath: `${side.exportDir}/rpc.html` });
  const end = await rpc.close();
  expect(end.stderr, `${side.kind} stderr`).toBe("");
  expect(end.code).toBe(0);
  return answers;
}

describe("pi-sessions pi in RPC mode", () => {
  it("writes and answers what pi does: prompts, name, thinking level, compact, fork, clone, new, switch, tree, entries, export", async () => {
    const parent = tempDir("pi-launcher-rpc-");
    const [piSide, oursSide] = [makeSide(parent, "pi"), makeSide(parent, "ours")];
    const [piAnswers, oursAnswers] = await Promise.all([rpcFlow(piSide), rpcFlow(oursSide)]);

    const pi = normaliseSide(piSide, piAnswers);
    const ours = normaliseSide(oursSide, oursAnswers);
    expect(ours.extra).toEqual(pi.extra);
    const { unexplained, rows } = judge(compareFiles(pi.files, ours.files));
    expect(unexplained).toEqual([]);
    expect([...rows]).toEqual(["W22"]);
    // The first session, its fork, the clone and the new session.
    expect(sessionFilesOf(oursSide)).toHaveLength(4);
  }, 180_000);
});
