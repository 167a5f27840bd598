/**
 * The append commands whose call names another entry (SPEC §5.4): a compaction's first kept
 * entry, a label's target, a context edit's target. The target is drawn as a `Target` and
 * resolved against the model, so unknown and off-branch ids are exercised with their errors.
 */
import type { Target } from "../api-calls/call-args.js";
import type { SessionManagerLike } from "../api-calls/manager-api.js";
import type { Extras, KeepTarget } from "../api-calls/manager-calls.js";
import { AppendCommand } from "./append-command-base.js";
import { notFound, type SessionModel } from "./session-model.js";
import { callOn, copyArg, resolveTarget, runAppend, show } from "./step.js";

/** `appendCompaction(...)`: null keeps none (own id); the system checkpoint (SPEC §5.4). */
export class AppendCompactionCommand extends AppendCommand {
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

/** `appendLabelChange(targetId, label)`: unknown targets throw; falsy labels clear (§7.10). */
export class AppendLabelChangeCommand extends AppendCommand {
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

/** `appendContextEdit(targetId, replacement)`: four checks in order, then the edit (§5.4). */
export class AppendContextEditCommand extends AppendCommand {
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
