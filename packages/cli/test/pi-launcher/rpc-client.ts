/**
 * A small client of pi's RPC mode (pi's docs/rpc.md) over a side's real `pi --mode rpc`
 * process: JSONL commands on stdin with ids, responses matched by id, events collected, a
 * prompt awaited until `agent_settled`. Records are split on LF only, as the docs require.
 */

import type { ChildProcess } from "node:child_process";
import { collect, type PiRun, type PiSide, startSide } from "./pi-sides.js";

/** One record pi wrote on stdout. */
export type RpcRecord = Record<string, unknown> & { type: string };

/** A running `pi --mode rpc`. */
export class RpcSession {
  private readonly child: ChildProcess;
  private readonly ended: Promise<PiRun>;
  private buffer = "";
  private nextId = 1;
  private readonly waiting = new Map<string, (record: RpcRecord) => void>();
  private readonly eventWaiters: { type: string; resolve: () => void }[] = [];
  /** Every event (non-response record) so far. */
  readonly events: RpcRecord[] = [];

  constructor(side: PiSide, args: readonly string[], env: NodeJS.ProcessEnv = {}) {
    this.child = startSide(side, ["--mode", "rpc", ...args], env);
    this.child.stdout?.setEncoding("utf8").on("data", (chunk: string) => this.take(chunk));
    // collect() reads stderr and the exit; stdout is ours.
    this.ended = collect(this.child, undefined);
  }

  private take(chunk: string): void {
    this.buffer += chunk;
    for (let nl = this.buffer.indexOf("\n"); nl >= 0; nl = this.buffer.indexOf("\n")) {
      const line = this.buffer.slice(0, nl).replace(/\r$/, "");
      this.buffer = this.buffer.slice(nl + 1);
      if (line.trim() === "") continue;
      const record = JSON.parse(line) as RpcRecord;
      const id = record.id;
      if (record.type === "response" && typeof id === "string" && this.waiting.has(id)) {
        this.waiting.get(id)?.(record);
        this.waiting.delete(id);
        continue;
      }
      this.events.push(record);
      for (const waiter of this.eventWaiters.splice(0)) {
        if (waiter.type === record.type) waiter.resolve();
        else this.eventWaiters.push(waiter);
      }
    }
  }

  /** Sends a command and resolves its response. */
  send(command: Record<string, unknown> & { type: string }): Promise<RpcRecord> {
    const id = `req-${this.nextId++}`;
    const answer = new Promise<RpcRecord>((resolve) => this.waiting.set(id, resolve));
    this.child.stdin?.write(`${JSON.stringify({ ...command, id })}\n`);
    return answer;
  }

  /** Resolves at the next event of `type`. */
  nextEvent(type: string): Promise<void> {
    return new Promise((resolve) => this.eventWaiters.push({ type, resolve }));
  }

  /** Sends a prompt and waits until pi has settled (it will not continue on its own). */
  async prompt(message: string): Promise<RpcRecord> {
    const settled = this.nextEvent("agent_settled");
    const response = await this.send({ type: "prompt", message });
    if (
      response.success === true &&
      (response.data as { disposition?: string })?.disposition !== "handled"
    ) {
      await settled;
    }
    return response;
  }

  /** Closes stdin (pi exits) and resolves how the process ended. */
  close(): Promise<PiRun> {
    this.child.stdin?.end();
    return this.ended;
  }
}
