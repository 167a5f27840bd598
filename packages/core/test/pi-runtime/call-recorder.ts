/**
 * Counts which SessionManager members pi touches, through Proxies around the class (static
 * factories, `list`, …) and around every manager instance a static call hands out.
 *
 * Calls made by the test script itself (to find an entry id, to list sessions) are counted
 * apart, under the actor "script", so the table shows what pi's runtime does on its own.
 * On our side, a `get` of a member that is undefined on ours but defined on pi's class is
 * recorded as missing: pi would have crashed or silently skipped something there.
 */

/** Who made a call: pi's runtime, or the scripted flow driving it. */
export type Actor = "pi" | "script";

/** One counted member: static (on the class) or instance (on a manager). */
export interface MemberTouch {
  readonly member: string;
  readonly kind: "static" | "instance";
  readonly actor: Actor;
  /** Property reads (a method call is one read plus one call). */
  readonly gets: number;
  /** Calls of the member, when it is a method. */
  readonly calls: number;
  /** Property writes (pi never should; counted so the test would see it). */
  readonly sets: number;
}

/** Everything the recorder saw, as written to the side's JSON log. */
export interface RecorderReport {
  readonly touches: MemberTouch[];
  /** `static:name` / `instance:name` pi read on ours that ours lacks and pi's class has. */
  readonly missing: string[];
}

type Counter = { gets: number; calls: number; sets: number };
// Either SessionManager as a constructor (both have non-public constructors, hence the casts).
type AnyClass = abstract new (...args: never[]) => object;
const asClass = (value: object): AnyClass => value as unknown as AnyClass;

const counters = new Map<string, Counter>();
const missing = new Set<string>();
const targets = new WeakMap<object, object>();
const proxies = new WeakMap<object, object>();
let actor: Actor = "pi";

// Members read by the language or by tooling rather than by pi's code.
const IGNORED = new Set(["prototype", "constructor", "then", "toJSON", "name", "length"]);

function counter(kind: "static" | "instance", member: string): Counter {
  const key = `${kind}\u0000${member}\u0000${actor}`;
  let c = counters.get(key);
  if (!c) {
    c = { gets: 0, calls: 0, sets: 0 };
    counters.set(key, c);
  }
  return c;
}

/** Runs `fn` with its SessionManager calls counted under "script" instead of "pi". */
export function asScript<T>(fn: () => T): T {
  const previous = actor;
  actor = "script";
  try {
    const result = fn();
    if (result instanceof Promise) {
      // Keep the actor for the whole async call (pi is idle meanwhile: the flow awaits it).
      return result.finally(() => {
        actor = previous;
      }) as T;
    }
    actor = previous;
    return result;
  } catch (error) {
    actor = previous;
    throw error;
  }
}

/** The object behind a recording proxy (the value itself when it is not one). */
export function unwrap<T>(value: T): T {
  const isObject = (typeof value === "object" && value !== null) || typeof value === "function";
  return (isObject ? (targets.get(value as object) ?? value) : value) as T;
}

/** What the recorder saw so far. */
export function recorderReport(): RecorderReport {
  const touches = [...counters].map(([key, c]) => {
    const [kind, member, who] = key.split("\u0000") as ["static" | "instance", string, Actor];
    return { member, kind, actor: who, ...c };
  });
  const key = (t: MemberTouch): string => `${t.kind} ${t.member} ${t.actor}`;
  touches.sort((a, b) => key(a).localeCompare(key(b)));
  return { touches, missing: [...missing].sort() };
}

/**
 * Wraps `chosen` (the class pi gets) so that every member read and call is counted, and every
 * manager a static member returns is wrapped as well. `reference` is pi's own class: on our
 * side, a read of something ours lacks but pi's has is recorded in `missing`.
 */
export function recordingClass<C extends object>(chosenClass: C, referenceClass: object): C {
  const chosen = asClass(chosenClass);
  const reference = asClass(referenceClass);
  const compare = chosen !== reference;
  let sample: object | undefined;
  // A real instance of pi's class shows its instance fields, which the prototype does not.
  const referenceHas = (member: string, onClass: boolean): boolean => {
    if (onClass) return (reference as unknown as Record<string, unknown>)[member] !== undefined;
    if ((reference.prototype as Record<string, unknown>)[member] !== undefined) return true;
    sample ??= (reference as unknown as { inMemory(cwd: string): object }).inMemory("/");
    return member in sample;
  };
  const wrapValue = (value: unknown): unknown =>
    value instanceof chosen ? wrapObject(value, "instance") : value;

  function wrapObject<T extends object>(target: T, kind: "static" | "instance"): T {
    const existing = proxies.get(target);
    if (existing) return existing as T;
    const methods = new Map<PropertyKey, unknown>();
    const proxy = new Proxy(target, {
      get(t, prop) {
        const value = Reflect.get(t, prop, t) as unknown;
        if (typeof prop !== "string" || IGNORED.has(prop)) return value;
        counter(kind, prop).gets++;
        if (compare && value === undefined && referenceHas(prop, kind === "static")) {
          missing.add(`${kind}:${prop}`);
        }
        if (typeof value !== "function") return value;
        // One wrapper per member, so a method read twice is the same function both times.
        let wrapped = methods.get(prop);
        if (!wrapped) {
          const method = value as (...args: unknown[]) => unknown;
          wrapped = (...args: unknown[]) => {
            counter(kind, prop).calls++;
            // `this` is the real object: private state and internal calls stay unproxied,
            // so only what pi itself calls is counted.
            const result = method.apply(t, args);
            return result instanceof Promise ? result.then(wrapValue) : wrapValue(result);
          };
          methods.set(prop, wrapped);
        }
        return wrapped;
      },
      // A feature check (`"member" in manager`) counts as a read, and as a missing member
      // when pi's class has it and ours does not.
      has(t, prop) {
        const present = Reflect.has(t, prop);
        if (typeof prop !== "string" || IGNORED.has(prop)) return present;
        counter(kind, prop).gets++;
        if (compare && !present && referenceHas(prop, kind === "static")) {
          missing.add(`${kind}:${prop}`);
        }
        return present;
      },
      set(t, prop, value) {
        if (typeof prop === "string") counter(kind, prop).sets++;
        return Reflect.set(t, prop, value, t);
      },
    });
    proxies.set(target, proxy);
    targets.set(proxy, target);
    return proxy;
  }

  return wrapObject(chosenClass, "static");
}
