// Bench-only preload (`node --import`): counts and times every call pi makes on a
// SessionManager class — static and instance members — inside the real pi process. The module
// whose `SessionManager` to wrap is named by `PI_SESSIONS_BENCH_MODULE` (a file URL: the
// launcher's built launcher-session-manager.js, or pi's own dist/core/session-manager.js, the
// same module instances pi's unbundled code imports); the totals go to the JSON file named by
// `PI_SESSIONS_BENCH_CALLS` when the process exits. Plain JavaScript: pi's process runs without
// a TypeScript loader, so nothing but the measured code adds to its start.
import { writeFileSync } from "node:fs";

const moduleUrl = process.env.PI_SESSIONS_BENCH_MODULE;
const out = process.env.PI_SESSIONS_BENCH_CALLS;
// Only in pi's own process: the launcher passes its Node options on to pi, so this module is
// loaded in the launcher too, which must not write (its exit comes after pi's).
const inPi = /pi-coding-agent[\\/]dist[\\/](bundle[\\/])?cli\.js$/.test(process.argv[1] ?? "");
if (moduleUrl && out && inPi) {
  const { SessionManager } = await import(moduleUrl);
  const totals = new Map();
  const started = performance.now();
  const note = (name, ms) => {
    const t = totals.get(name) ?? {
      calls: 0,
      ms: 0,
      maxMs: 0,
      firstAtMs: performance.now() - started,
    };
    t.calls++;
    t.ms += ms;
    t.maxMs = Math.max(t.maxMs, ms);
    totals.set(name, t);
  };
  const wrap = (target, name, label) => {
    const fn = target[name];
    if (typeof fn !== "function" || name === "constructor") return;
    target[name] = function (...args) {
      const t0 = performance.now();
      const result = fn.apply(this, args);
      if (result instanceof Promise)
        return result.finally(() => note(label, performance.now() - t0));
      note(label, performance.now() - t0);
      return result;
    };
  };
  // Statics along the class chain (the launcher's subclass inherits core's), then the prototype.
  for (let c = SessionManager; c && c !== Function.prototype; c = Object.getPrototypeOf(c)) {
    for (const name of Object.getOwnPropertyNames(c)) {
      if (!["length", "name", "prototype"].includes(name) && !totals.has(`static ${name}`)) {
        wrap(SessionManager, name, `static ${name}`);
      }
    }
  }
  for (
    let p = SessionManager.prototype;
    p && p !== Object.prototype;
    p = Object.getPrototypeOf(p)
  ) {
    for (const name of Object.getOwnPropertyNames(p)) {
      if (Object.getOwnPropertyDescriptor(p, name)?.value instanceof Function) wrap(p, name, name);
    }
  }
  process.on("exit", () => {
    const rows = [...totals].map(([member, t]) => ({ member, ...t }));
    writeFileSync(out, `${JSON.stringify(rows, null, 2)}\n`);
  });
}
