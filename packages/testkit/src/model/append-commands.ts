/**
 * One fast-check command per append method of the SessionManager API (SPEC §5.4). Each runs
 * the call on the implementation, predicts the entry (or the exact error) with the model, and
 * then compares everything observable (see `check.ts`).
 */
import type fc from "fast-check";
import type { Target } from "../api-calls/call-args.js";
import type { JsonObject, SessionManagerLike } from "../api-calls/manager-api.js";
import type { Extras, KeepTarget } from "../api-calls/manager-calls.js";
import { notFound, type SessionModel } from "./session-model.js";
import { callOn, copyArg, resolveTarget, runAppend, show } from "./step.js";

export type { Extras };

/** A command of the session model: the model, the implementation under test. */
export type SessionCommand = fc.Command<SessionModel, SessionManagerLike>;

/** Shared parts: commands are always applicable (errors are part of the model). */
abstract class Base implements SessionCommand {
  check(): boolean {
    return true;
  }
  abstract run(model: SessionModel, sm: SessionManagerLike): void;
  abstract toString(): string;

  /** Runs an append that cannot fail: the model's entry is the common fields plus `fields`. */
  protected runPlain(
    m: SessionModel,
    sm: SessionManagerLike,
    type: string,
    call: () => unknown,
    fields: () => JsonObject,
  ): void {
    runAppend(this.toString(), m, sm, undefined, call, (id, ts) => ({
      ...m.base(type, id, ts),
      ...fields(),
    }));
  }
}

/** `appendMessage(message)`: any role, stored as given (SPEC §5.4). */
export class AppendMessageCommand extends Base {
  constructor(readonly message: JsonObject) {
    super();
  }
  run(m: SessionModel, sm: SessionManagerLike): void {
    this.runPlain(
      m,
      sm,
      "message",
      callOn(m, sm, { op: "appendMessage", message: this.message }),
      () => ({
        message: copyArg(this.message),
      }),
    );
  }
  toString(): string {
    return `appendMessage(${show(this.message)})`;
  }
}

/** `appendThinkingLevelChange(level)`. */
export class AppendThinkingLevelChangeCommand extends Base {
  constructor(readonly level: string) {
    super();
  }
  run(m: SessionModel, sm: SessionManagerLike): void {
    this.runPlain(
      m,
      sm,
      "thinking_level_change",
      callOn(m, sm, { op: "appendThinkingLevelChange", level: this.level }),
      () => ({
        thinkingLevel: this.level,
      }),
    );
  }
  toString(): string {
    return `appendThinkingLevelChange(${show(this.level)})`;
  }
}

/** `appendModelChange(provider, modelId)`. */
export class AppendModelChangeCommand extends Base {
  constructor(
    readonly provider: string,
    readonly modelId: string,
  ) {
    super();
  }
  run(m: SessionModel, sm: SessionManagerLike): void {
    this.runPlain(
      m,
      sm,
      "model_change",
      callOn(m, sm, { op: "appendModelChange", provider: this.provider, modelId: this.modelId }),
      () => ({
        provider: this.provider,
        modelId: this.modelId,
      }),
    );
  }
  toString(): string {
    return `appendModelChange(${show(this.provider)}, ${show(this.modelId)})`;
  }
}

/** `appendCompaction(...)`: null keeps none (own id); the system checkpoint (SPEC §5.4). */
export class AppendCompactionCommand extends Base {
  constructor(
    readonly summary: string,
    readonly keep: KeepTarget,
    readonly tokensBefore: number,
    readonly extras: Extras,
  ) {
    super();
  }
  run(m: SessionModel, sm: SessionManagerLike): void {
    const keep =
      typeof this.keep === "object" && this.keep !== null ? resolveTarget(m, this.keep) : this.keep;
    runAppend(
      `${this} [keep ${keep}]`,
      m,
      sm,
      undefined,
      callOn(m, sm, {
        op: "appendCompaction",
        summary: this.summary,
        keep: this.keep,
        tokens: this.tokensBefore,
        extras: this.extras,
      }),
      (id, ts) =>
        m.compaction(id, ts, {
          ...copyArg(this.extras),
          summary: this.summary,
          keep,
          tokensBefore: this.tokensBefore,
        }),
    );
  }
  toString(): string {
    return `appendCompaction(${show(this.summary)}, ${show(this.keep)}, ${this.tokensBefore}, ${show(this.extras)})`;
  }
}

/** `appendCustomEntry(customType, data)`: extension state, never in context. */
export class AppendCustomEntryCommand extends Base {
  constructor(
    readonly customType: string,
    readonly data: unknown,
  ) {
    super();
  }
  run(m: SessionModel, sm: SessionManagerLike): void {
    runAppend(
      this.toString(),
      m,
      sm,
      undefined,
      callOn(m, sm, { op: "appendCustomEntry", customType: this.customType, data: this.data }),
      (id, ts) => ({
        type: "custom",
        customType: this.customType,
        data: copyArg(this.data),
        id,
        parentId: m.leafId,
        timestamp: ts,
      }),
    );
  }
  toString(): string {
    return `appendCustomEntry(${show(this.customType)}, ${show(this.data)})`;
  }
}

/** `appendCustomMessageEntry(customType, content, display, details)`: reaches the context. */
export class AppendCustomMessageEntryCommand extends Base {
  constructor(
    readonly customType: string,
    readonly content: unknown,
    readonly display: boolean,
    readonly details: unknown,
  ) {
    super();
  }
  run(m: SessionModel, sm: SessionManagerLike): void {
    const call = callOn(m, sm, {
      op: "appendCustomMessageEntry",
      customType: this.customType,
      content: this.content,
      display: this.display,
      details: this.details,
    });
    runAppend(this.toString(), m, sm, undefined, call, (id, ts) => ({
      type: "custom_message",
      customType: this.customType,
      content: copyArg(this.content),
      display: this.display,
      details: copyArg(this.details),
      id,
      parentId: m.leafId,
      timestamp: ts,
    }));
  }
  toString(): string {
    return `appendCustomMessageEntry(${show(this.customType)}, ${show(this.content)}, ${this.display}, ${show(this.details)})`;
  }
}

/** `appendSessionInfo(name)`: CR/LF runs become one space, then trimmed (SPEC §5.4). */
export class AppendSessionInfoCommand extends Base {
  constructor(readonly name: string) {
    super();
  }
  run(m: SessionModel, sm: SessionManagerLike): void {
    this.runPlain(
      m,
      sm,
      "session_info",
      callOn(m, sm, { op: "appendSessionInfo", name: this.name }),
      () => ({
        name: this.name.replace(/[\r\n]+/g, " ").trim(),
      }),
    );
  }
  toString(): string {
    return `appendSessionInfo(${show(this.name)})`;
  }
}

/** `appendLabelChange(targetId, label)`: unknown targets throw; falsy labels clear (§7.10). */
export class AppendLabelChangeCommand extends Base {
  constructor(
    readonly target: Target,
    readonly label: string | null | undefined,
  ) {
    super();
  }
  run(m: SessionModel, sm: SessionManagerLike): void {
    const targetId = resolveTarget(m, this.target);
    const error = m.has(targetId) ? undefined : notFound(targetId);
    runAppend(
      `${this} [target ${targetId}]`,
      m,
      sm,
      error,
      callOn(m, sm, { op: "appendLabelChange", target: this.target, label: this.label }),
      (id, ts) => ({
        ...m.base("label", id, ts),
        targetId,
        label: this.label as string | undefined,
      }),
    );
  }
  toString(): string {
    return `appendLabelChange(${show(this.target)}, ${show(this.label)})`;
  }
}

/** `appendUsage(kind, provider, model, usage, note)`: returns the entry; empty notes left out. */
export class AppendUsageCommand extends Base {
  constructor(
    readonly kind: string,
    readonly provider: string,
    readonly modelName: string,
    readonly usage: JsonObject,
    readonly note: string | undefined,
  ) {
    super();
  }
  run(m: SessionModel, sm: SessionManagerLike): void {
    const usage = {
      op: "appendUsage" as const,
      kind: this.kind,
      provider: this.provider,
      model: this.modelName,
      usage: this.usage,
      ...(this.note === undefined ? {} : { note: this.note }),
    };
    const call = callOn(m, sm, usage);
    const build = (id: string, ts: string) => ({
      ...m.base("usage", id, ts),
      kind: this.kind,
      provider: this.provider,
      model: this.modelName,
      usage: copyArg(this.usage),
      ...(this.note ? { note: this.note } : {}),
    });
    runAppend(this.toString(), m, sm, undefined, call, build, true);
  }
  toString(): string {
    return `appendUsage(${show(this.kind)}, ${show(this.provider)}, ${show(this.modelName)}, …, ${show(this.note)})`;
  }
}

/** `appendContextEdit(targetId, replacement)`: four checks in order, then the edit (§5.4). */
export class AppendContextEditCommand extends Base {
  constructor(
    readonly target: Target,
    readonly replacement: unknown,
  ) {
    super();
  }
  run(m: SessionModel, sm: SessionManagerLike): void {
    const targetId = resolveTarget(m, this.target);
    const error = m.contextEditError(targetId, this.replacement);
    const call = callOn(m, sm, {
      op: "appendContextEdit",
      target: this.target,
      replacement: this.replacement,
    });
    runAppend(`${this} [target ${targetId}]`, m, sm, error, call, (id, ts) => ({
      ...m.base("context_edit", id, ts),
      targetId,
      replacement: copyArg(m.contextEditReplacement(targetId, this.replacement)),
    }));
  }
  toString(): string {
    return `appendContextEdit(${show(this.target)}, ${show(this.replacement)})`;
  }
}
