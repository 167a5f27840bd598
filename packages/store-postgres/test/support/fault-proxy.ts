/**
 * A TCP proxy in front of a real server that can end a connection at the one moment a storm
 * of `pg_terminate_backend` only hits by chance: in the same packet as the server's first
 * ReadyForQuery, so that the client learns its connection is gone before whoever asked the
 * pool for it had a chance to listen. The proxy forwards the start-up up to that message, adds
 * the FATAL a terminated backend sends (57P01), and closes both sides. Everything else passes
 * through untouched.
 */
import { connect, createServer, type Server, type Socket } from "node:net";

/** A running proxy: its URL, and how many of the next connections to end at start-up. */
export interface FaultProxy {
  readonly url: string;
  /** Ends each of the next `n` connections in the packet that completes its start-up. */
  endAtStartup(n: number): void;
  /** How many connections it ended so far. */
  readonly ended: number;
  close(): Promise<void>;
}

/** The ErrorResponse a backend sends when it is terminated. */
function fatal(): Buffer {
  const fields = Buffer.concat([
    ...[
      ["S", "FATAL"],
      ["V", "FATAL"],
      ["C", "57P01"],
      ["M", "terminating connection due to administrator command"],
    ].map(([k, v]) => Buffer.from(`${k}${v}\u0000`, "utf8")),
    Buffer.from([0]),
  ]);
  const head = Buffer.alloc(5);
  head.write("E", 0, "latin1");
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

/** The end of the first ReadyForQuery ('Z') message in `bytes`, or -1 while it is incomplete. */
function readyEnd(bytes: Buffer): number {
  let at = 0;
  while (at + 5 <= bytes.length) {
    const end = at + 1 + bytes.readInt32BE(at + 1);
    if (end > bytes.length) return -1;
    if (bytes[at] === 0x5a) return end;
    at = end;
  }
  return -1;
}

/** Starts a proxy on a free loopback port in front of `target` (`host:port`). */
export async function startFaultProxy(targetUrl: string): Promise<FaultProxy> {
  const target = new URL(targetUrl);
  let toEnd = 0;
  let ended = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    sockets.add(client).add(upstream);
    for (const s of [client, upstream]) {
      s.on("error", () => {});
      s.on("close", () => {
        sockets.delete(s);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream);
    const endThis = toEnd > 0;
    if (endThis) toEnd--;
    if (!endThis) {
      upstream.pipe(client);
      return;
    }
    let seen = Buffer.alloc(0);
    upstream.on("data", (chunk: Buffer) => {
      seen = Buffer.concat([seen, chunk]);
      const end = readyEnd(seen);
      if (end < 0) return;
      ended++;
      client.end(Buffer.concat([seen.subarray(0, end), fatal()]));
      upstream.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  const url = new URL(targetUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return {
    url: url.toString(),
    endAtStartup(n) {
      toEnd = n;
    },
    get ended() {
      return ended;
    },
    close() {
      for (const s of sockets) s.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
