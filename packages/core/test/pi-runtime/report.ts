/**
 * Text for the pi-runtime test's report and failure messages: the table of SessionManager
 * members pi touched on each side, and one-line descriptions of differences.
 */
import type { MemberTouch } from "./call-recorder.js";
import type { Difference } from "./compare-sides.js";
import type { SideLog } from "./run-side.js";

const key = (t: MemberTouch): string => `${t.kind === "static" ? "static " : ""}${t.member}`;

/** Count shown for a member: calls for methods, reads for anything else. */
const countOf = (t: MemberTouch | undefined): number => (t ? t.calls || t.gets : 0);

function byMember(log: SideLog, actor: MemberTouch["actor"]): Map<string, MemberTouch> {
  return new Map(log.recorder.touches.filter((t) => t.actor === actor).map((t) => [key(t), t]));
}

const counts = (t: MemberTouch | undefined): string =>
  t ? `${t.gets} reads/${t.calls} calls/${t.sets} writes` : "untouched";

/** Members whose counts differ between the sides, for `actor`. */
export function countMismatches(pi: SideLog, ours: SideLog, actor: MemberTouch["actor"]): string[] {
  const a = byMember(pi, actor);
  const b = byMember(ours, actor);
  return [...new Set([...a.keys(), ...b.keys()])]
    .filter((m) => counts(a.get(m)) !== counts(b.get(m)))
    .map((m) => `${m}: pi's manager ${counts(a.get(m))}, ours ${counts(b.get(m))}`);
}

/** `lines` cut to the first `max`, with a last line saying how many were left out. */
export function firstOf(lines: string[], max: number): string[] {
  return lines.length <= max ? lines : [...lines.slice(0, max), `… and ${lines.length - max} more`];
}

/** A Markdown table of what pi's runtime touched (actor "pi"), pi's side next to ours. */
export function callTable(pi: SideLog, ours: SideLog): string {
  const a = byMember(pi, "pi");
  const b = byMember(ours, "pi");
  const members = [...new Set([...a.keys(), ...b.keys()])].sort((x, y) => {
    const byCount = countOf(a.get(y)) - countOf(a.get(x));
    return byCount || x.localeCompare(y);
  });
  const rows = members.map((m) => `| ${m} | ${countOf(a.get(m))} | ${countOf(b.get(m))} |`);
  return ["| member pi's runtime used | pi's manager | ours |", "|---|---:|---:|", ...rows].join(
    "\n",
  );
}

const clip = (s: string | undefined, n = 300): string =>
  s === undefined ? "(none)" : s.length > n ? `${s.slice(0, n)}…` : s;

/** One line (two for line differences) describing a difference. */
export function describeDifference(d: Difference): string {
  switch (d.kind) {
    case "mode":
      return `${d.path}: mode ${d.pi} (pi) vs ${d.ours} (ours)`;
    case "only":
      return `${d.path}: written by ${d.side} only`;
    case "listing":
      return `${d.path}: present on ${d.side} only at the end of the flow`;
    case "line":
      return `${d.path}:${d.line} differs at ${d.field}\n  pi:   ${clip(d.pi)}\n  ours: ${clip(d.ours)}`;
    case "list":
      return `${d.which}()[${d.index}] differs\n  pi:   ${clip(d.pi)}\n  ours: ${clip(d.ours)}`;
  }
}
