import { describe, expect, it } from "vitest";
import { runStart } from "../../run-start.js";
import { buildDemo, runDemo } from "../src/demo.js";

describe("custom-extension demo", () => {
  const out = runDemo();
  const linesAfter = (heading: string, n: number) => {
    const at = out.indexOf(`== ${heading}`);
    expect(at).toBeGreaterThanOrEqual(0);
    return out.slice(at + 1, at + 1 + n);
  };

  it("shows a different todo list on each branch", () => {
    expect(linesAfter("Todos on branch B (the leaf)", 4)).toEqual([
      "☐ Write the changelog",
      "☐ Tag v1.0",
      "☐ Update docs",
      "☐ Announce on the blog",
    ]);
    expect(linesAfter("Todos on branch A", 3)).toEqual([
      "☑ Write the changelog",
      "☐ Tag v1.0",
      "☑ Update docs",
    ]);
  });

  it("counts operations of both branches and refuses the invalid append", () => {
    expect(linesAfter("Todo operations in the whole file (both branches)", 1)).toEqual([
      '{"add":4,"done":2,"reopen":0,"unreadable":0}',
    ]);
    const [message, counts] = linesAfter(
      "An invalid append is refused before anything is written",
      2,
    );
    expect(message).toContain('rejected by plugin "todo"');
    expect(message).toContain("data.id: expected string, got number 42");
    expect(counts).toBe("entries before: 9, after: 9");
  });

  it("renders the branch with the todo renderers and reports damaged lines by number", () => {
    expect(out).toContain("🔔 reminder sent to the model: 1 open todo(s)");
    expect(out).toContain("☑ todo done: update-docs");
    expect(linesAfter("Reloading the file with two damaged todo lines", 3)).toEqual([
      "11 entries kept; plugin diagnostics:",
      '  line 11: custom entry "todo" v2: data.id: missing; expected string',
      '  line 12: custom entry "todo" v3: data.v: written by a newer version (v3); this plugin reads up to v2',
    ]);
  });

  it("the reminder carried the open todos to the model's context", () => {
    const { sm, leafA } = buildDemo();
    sm.branch(leafA);
    const last = sm.buildSessionContext().messages.at(-1);
    expect(last).toMatchObject({
      role: "custom",
      customType: "todo-reminder",
      content: "Open todos: Tag v1.0",
      details: { open: ["Tag v1.0"] },
    });
  });
});

describe("custom-extension start script", () => {
  it("runs from the README command and prints the demo", () => {
    const run = runStart(import.meta.url);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(
      runDemo()
        .map((line) => `${line}\n`)
        .join(""),
    );
  });
});
