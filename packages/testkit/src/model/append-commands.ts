/**
 * One fast-check command per append method of the SessionManager API that only adds an entry
 * (SPEC §5.4); those naming another entry are in `targeted-append-commands.ts`. Each runs the
 * call on the implementation, predicts the entry (or the exact error) with the model, and then
 * compares everything observable (see `check.ts`).
 */
import type { JsonObject, SessionManagerLike } from "../api-calls/manager-api.js";
import type { Extras } from "../api-calls/manager-calls.js";
import { AppendCommand } from "./append-command-base.js";
import type { SessionModel } from "./session-model.js";
import { callOn, copyArg, runAppend, show } from "./step.js";

export type { SessionCommand } from "./append-command-base.js";
export type { Extras };

/** `appendMessage(message)`: any role, stored as given (SPEC §5.4). */
export class AppendMessageCommand extends AppendCommand {
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
export class AppendThinkingLevelChangeCommand extends AppendCommand {
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
export class AppendModelChangeCommand extends AppendCommand {
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

/** `appendCustomEntry(customType, data)`: extension state, never in context. */
export class AppendCustomEntryCommand extends AppendCommand {
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
export class AppendCustomMessageEntryCommand extends AppendCommand {
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
export class AppendSessionInfoCommand extends AppendCommand {
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

/** `appendUsage(kind, provider, model, usage, note)`: returns the entry; empty notes left out. */
export class AppendUsageCommand extends AppendCommand {
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
