/**
 * Default rendering of every message role (SPEC §3.3) and of unknown roles.
 */
import { type MessageRole, systemPrompt } from "@pi-sessions/core";
import type { Fmt } from "./format.js";
import { contentParts, jsonBlock, literal, usagePart } from "./parts.js";
import { formatInt, get, safeString, str } from "./text.js";
import type { RenderContext } from "./types.js";

type RoleRenderer = (fmt: Fmt, ctx: RenderContext, message: unknown, id?: string) => string;

function assistant(fmt: Fmt, ctx: RenderContext, m: unknown, id?: string): string {
  const provider = str(get(m, "provider")) ?? "?";
  const model = str(get(m, "responseModel")) ?? str(get(m, "model")) ?? "?";
  const parts = contentParts(fmt, ctx, get(m, "content"));
  const stop = str(get(m, "stopReason"));
  if (stop !== undefined && stop !== "stop" && stop !== "toolUse") {
    const error = str(get(m, "errorMessage"));
    parts.push(fmt.note(`stopped: ${fmt.inline(stop)}${error ? ` — ${fmt.inline(error)}` : ""}`));
  }
  parts.push(usagePart(fmt, get(m, "usage")));
  return fmt.block(`Assistant · ${fmt.inline(`${provider}/${model}`)}`, id, parts);
}

function toolResult(fmt: Fmt, ctx: RenderContext, m: unknown, id?: string): string {
  const name = fmt.code(str(get(m, "toolName")) ?? "?");
  const error = get(m, "isError") === true ? " · error" : "";
  const parts = contentParts(fmt, ctx, get(m, "content"), true);
  parts.push(usagePart(fmt, get(m, "usage")));
  return fmt.block(`Tool result · ${name}${error}`, id, parts);
}

function bashExecution(fmt: Fmt, ctx: RenderContext, m: unknown, id?: string): string {
  const command = safeString(get(m, "command") ?? "");
  const output = safeString(get(m, "output") ?? "");
  const notes: string[] = [];
  const exit = get(m, "exitCode");
  if (typeof exit === "number") notes.push(`exit code ${formatInt(exit)}`);
  if (get(m, "cancelled") === true) notes.push("cancelled");
  if (get(m, "truncated") === true) {
    const full = str(get(m, "fullOutputPath"));
    notes.push(`output truncated${full ? `, full output in ${fmt.code(full)}` : ""}`);
  }
  const excluded = get(m, "excludeFromContext") === true ? " · excluded from context" : "";
  const parts = [literal(fmt, ctx, `$ ${command}\n${output}`, "console")];
  if (notes.length > 0) parts.push(fmt.note(notes.join(" · ")));
  return fmt.block(`Bash${excluded}`, id, parts);
}

function custom(fmt: Fmt, ctx: RenderContext, m: unknown, id?: string): string {
  const type = fmt.inline(str(get(m, "customType")) ?? "?");
  const hidden = get(m, "display") === false ? " · hidden" : "";
  return fmt.block(
    `Custom message · ${type}${hidden}`,
    id,
    contentParts(fmt, ctx, get(m, "content")),
  );
}

function branchSummary(fmt: Fmt, _ctx: RenderContext, m: unknown, id?: string): string {
  return fmt.block("Branch summary", id, [fmt.prose(safeString(get(m, "summary") ?? ""))]);
}

function compactionSummary(fmt: Fmt, _ctx: RenderContext, m: unknown, id?: string): string {
  const tokens = get(m, "tokensBefore");
  const parts = [fmt.prose(safeString(get(m, "summary") ?? ""))];
  if (typeof tokens === "number") parts.unshift(fmt.note(`${formatInt(tokens)} tokens before`));
  return fmt.block("Compaction summary", id, parts);
}

function system(fmt: Fmt, ctx: RenderContext, m: unknown, id?: string): string {
  const prompt = systemPrompt(m);
  const parts = prompt.text.length > 0 ? [literal(fmt, ctx, safeString(prompt.text))] : [];
  const notes: [string, readonly string[]][] = [
    ["tools added", prompt.toolsAdded],
    ["tools removed", prompt.toolsRemoved],
    ["sections removed", prompt.sectionsRemoved],
  ];
  for (const [label, names] of notes) {
    if (names.length > 0) parts.push(fmt.note(`${label}: ${names.map(fmt.code).join(", ")}`));
  }
  return fmt.block("System prompt", id, parts);
}

/** The rendering of each message role (`satisfies`: a new role must get one, in every format). */
const ROLES = {
  user: (fmt, ctx, m, id) => fmt.block("User", id, contentParts(fmt, ctx, get(m, "content"))),
  assistant,
  toolResult,
  bashExecution,
  custom,
  branchSummary,
  compactionSummary,
  system,
} satisfies Record<MessageRole, RoleRenderer>;

/**
 * The default rendering of a message of any role; `id` is the entry id shown in the title.
 * Unknown roles and non-objects show their JSON.
 */
export function renderDefaultMessage(
  fmt: Fmt,
  ctx: RenderContext,
  message: unknown,
  id?: string,
): string {
  const role = get(message, "role");
  const known =
    typeof role === "string" && Object.hasOwn(ROLES, role) ? ROLES[role as MessageRole] : undefined;
  if (known) return known(fmt, ctx, message, id);
  const title =
    typeof role === "string" ? `Message · role ${fmt.inline(role)}` : "Message without a role";
  return fmt.block(title, id, [jsonBlock(fmt, ctx, message)]);
}
