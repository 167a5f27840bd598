import { describe, expect, it } from "vitest";
import { assistant, fresh, reload, user } from "./fixtures.js";

describe("labels (SPEC §7.10, §13 item 6)", () => {
  it("set, change, clear with undefined / '' / null, label a label", () => {
    const sm = fresh();
    const a = sm.appendMessage(user("q"));
    const l1 = sm.appendLabelChange(a, "one");
    expect(sm.getLabel(a)).toBe("one");
    sm.appendLabelChange(a, "two");
    expect(sm.getLabel(a)).toBe("two");
    for (const clear of [undefined, "", null]) {
      sm.appendLabelChange(a, "again");
      sm.appendLabelChange(a, clear as never);
      expect(sm.getLabel(a)).toBeUndefined();
    }
    sm.appendLabelChange(l1, "meta");
    expect(sm.getLabel(l1)).toBe("meta");
    const tree = sm.getTree();
    expect(tree[0]?.label).toBeUndefined();
    expect(tree[0]?.children[0]?.label).toBe("meta");
  });

  it("the cleared key is left out for undefined; '' and null are written as given", () => {
    const sm = fresh();
    const a = sm.appendMessage(user("q"));
    const ids = [undefined, "", null].map((v) => sm.appendLabelChange(a, v as never));
    const stored = ids.map((id) => JSON.parse(JSON.stringify(sm.getEntry(id))));
    expect("label" in stored[0]).toBe(false);
    expect(stored[1].label).toBe("");
    expect(stored[2].label).toBeNull();
  });

  it("labels and their timestamps survive a reload; resolved over the whole file", () => {
    const sm = fresh();
    const a = sm.appendMessage(user("q"));
    const b = sm.appendMessage(assistant("r"));
    const l = sm.appendLabelChange(a, "start");
    sm.branch(a); // a label on another branch still counts: labels are file-wide
    sm.appendLabelChange(b, "other-branch");
    const again = reload(sm);
    expect(again.getLabel(a)).toBe("start");
    expect(again.getLabel(b)).toBe("other-branch");
    const node = again.getTree()[0];
    expect(node?.labelTimestamp).toBe(sm.getEntry(l)?.timestamp);
  });
});

describe("session names (SPEC §7.11, §13 item 7)", () => {
  it("latest wins on any branch; empty clears; trimmed", () => {
    const sm = fresh();
    expect(sm.getSessionName()).toBeUndefined();
    const a = sm.appendMessage(user("q"));
    sm.appendSessionInfo("first");
    sm.branch(a);
    sm.appendSessionInfo("  second  ");
    expect(sm.getSessionName()).toBe("second");
    sm.appendSessionInfo("");
    expect(sm.getSessionName()).toBeUndefined();
    sm.appendSessionInfo("\r\n");
    expect(sm.getSessionName()).toBeUndefined();
    sm.appendSessionInfo("third");
    expect(reload(sm).getSessionName()).toBe("third");
  });
});
