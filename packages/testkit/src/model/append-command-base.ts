import type fc from "fast-check";
import type { JsonObject, SessionManagerLike } from "../api-calls/manager-api.js";
import type { SessionModel } from "./session-model.js";
import { runAppend } from "./step.js";

/** A command of the session model: the model, the implementation under test. */
export type SessionCommand = fc.Command<SessionModel, SessionManagerLike>;

/**
 * What every append command shares: it is always applicable (errors are part of the model),
 * and an append that cannot fail expects the common fields plus its own.
 */
export abstract class AppendCommand implements SessionCommand {
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
