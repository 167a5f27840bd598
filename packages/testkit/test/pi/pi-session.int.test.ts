/**
 * The extension-test harness (`@pi-sessions/testkit/pi`) in pi's own runtime, over pi's
 * SessionManager and ours: the scripted model answers, `ctx.ui.notify` is collected, every
 * runtime pi creates (new session, resume, fork, reload) gets the chosen SessionManager class,
 * extension tools stay active while pi's built-in ones are off, and `compact()` has something
 * to summarise. Also the traps the harness avoids, shown in pi itself.
 */
import "../../src/pi/pi-hook.js";
import { stripVTControlCharacters } from "node:util";
import { SessionManager as PiSessionManager } from "@earendil-works/pi-coding-agent";
import { SessionManager as OurSessionManager } from "@pi-sessions/core";
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";
import {
  currentPiSessionManager,
  type PiTestSession,
  piTheme,
  startPiSession,
  usePiSessionManager,
} from "../../src/pi/index.js";

let pi: PiTestSession | undefined;
afterEach(async () => {
  await pi?.dispose();
  pi = undefined;
  usePiSessionManager("pi");
});

const CLASSES = { pi: PiSessionManager, ours: OurSessionManager } as const;

describe.each(["pi", "ours"] as const)("startPiSession over %s's SessionManager", (side) => {
  it("answers, collects notes, and keeps the class across new, resume, fork and reload", async () => {
    const starts: string[] = [];
    pi = await startPiSession({
      manager: side,
      extensions: [
        (ext) => {
          ext.on("session_start", (event) => void starts.push(event.reason));
          ext.registerCommand("hello", {
            handler: async (args, ctx) => ctx.ui.notify(`hello ${args}`, "info"),
          });
        },
      ],
    });
    const cls = CLASSES[side];
    expect(pi.manager()).toBeInstanceOf(cls);
    await pi.prompt("Plan the release.");
    await pi.prompt("/hello there");
    expect(pi.notes).toEqual([{ message: "hello there", type: "info" }]);
    const texts = pi
      .manager()
      .getBranch()
      .flatMap((e) => (e.type === "message" ? [JSON.stringify(e.message)] : []));
    expect(texts.join(" ")).toContain("Noted: Plan the release.");
    const file = pi.manager().getSessionFile() as string;
    const firstUser = pi.manager().getEntries()[0]?.id as string;
    await pi.runtime.newSession();
    expect(pi.manager()).toBeInstanceOf(cls);
    await pi.runtime.switchSession(file);
    expect(pi.manager()).toBeInstanceOf(cls);
    expect(pi.manager().getSessionFile()).toBe(file);
    await pi.runtime.fork(firstUser, { position: "at" });
    expect(pi.manager()).toBeInstanceOf(cls);
    await pi.session().reload();
    expect(pi.manager()).toBeInstanceOf(cls);
    expect(starts).toEqual(["startup", "new", "resume", "fork", "reload"]);
    expect(currentPiSessionManager()).toBe(cls);
  });

  it("keeps extension tools active with built-in tools off, and compacts a short session", async () => {
    pi = await startPiSession({
      manager: side,
      extensions: [
        (ext) =>
          ext.registerTool({
            name: "count_todos",
            label: "Count todos",
            description: "Counts the todos",
            parameters: Type.Object({}),
            execute: async () => ({ content: [{ type: "text", text: "3" }], details: {} }),
          }),
      ],
    });
    expect(pi.session().getActiveToolNames()).toEqual(["count_todos"]);
    await pi.prompt("one");
    await pi.prompt("two");
    await pi.session().compact();
    expect(
      pi
        .manager()
        .getEntries()
        .some((e) => e.type === "compaction"),
    ).toBe(true);
  });
});

describe("traps the harness avoids, in pi itself", () => {
  it("a Proxy as the UI context arrives empty: ctx.ui.notify is not a function", async () => {
    const errors: string[] = [];
    pi = await startPiSession({
      extensions: [
        (ext) =>
          ext.registerCommand("hello", {
            handler: async (_args, ctx) => {
              try {
                ctx.ui.notify("hi", "info");
              } catch (error) {
                errors.push((error as Error).message);
              }
            },
          }),
      ],
    });
    const ui = pi.session().extensionRunner.getUIContext();
    const proxy = new Proxy({}, { get: (_t, key) => ui[key as keyof typeof ui] });
    await pi.session().bindExtensions({ uiContext: proxy as typeof ui });
    await pi.prompt("/hello");
    expect(errors).toEqual(["ctx.ui.notify is not a function"]);
  });

  it("pi's theme instance, which renderers receive and pi does not export", () => {
    const theme = piTheme("dark");
    const styled = theme.fg("mdHeading", "x");
    expect(styled).not.toBe("x"); // coloured: ANSI sequences around the text
    expect(stripVTControlCharacters(styled)).toBe("x");
  });
});

it("asking for ours without the hook loaded says how to load it", async () => {
  const { execFileSync } = await import("node:child_process");
  const script =
    'const m = await import("@pi-sessions/testkit/pi");' +
    'try { await m.startPiSession({ manager: "ours", extensions: [] }); console.log("started"); }' +
    "catch (e) { console.log(e.message); }";
  const out = execFileSync(
    process.execPath,
    ["--conditions=@pi-sessions/source", "--import", "tsx", "--input-type=module", "-e", script],
    { cwd: new URL("../..", import.meta.url), encoding: "utf8" },
  );
  expect(out).toContain("--import @pi-sessions/testkit/pi-hook");
});
