import { closeSync, constants, openSync, readSync } from "node:fs";

/**
 * Reads what is written into `fifo` while `running` runs: its read end is open (non-blocking)
 * before the writer starts and drained until the writer is done, so a writer that never opens
 * the FIFO (a rename over it, as `-o` once did) gives "" instead of a reader waiting forever.
 */
export async function readFifoWhile<T>(
  fifo: string,
  running: Promise<T>,
): Promise<{ result: Promise<T>; text: string }> {
  const fd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const chunks: Buffer[] = [];
  const drain = () => {
    const buffer = Buffer.alloc(64 * 1024);
    for (;;) {
      let n: number;
      try {
        n = readSync(fd, buffer, 0, buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "EAGAIN") return;
        throw error;
      }
      if (n === 0) return;
      chunks.push(Buffer.from(buffer.subarray(0, n)));
    }
  };
  const timer = setInterval(drain, 10);
  try {
    await running;
  } finally {
    clearInterval(timer);
    drain();
    closeSync(fd);
  }
  return { result: running, text: Buffer.concat(chunks).toString("utf8") };
}
