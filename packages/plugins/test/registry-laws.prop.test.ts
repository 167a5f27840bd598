/**
 * Registry laws: registering never changes the registry it is called on; the result does not
 * depend on the order of plugins with distinct claims; a claim already owned is refused
 * exactly when a simple model says so (and taken over with `override`); unregister undoes a
 * clean register.
 */
import { defineProjection } from "@pi-sessions/core";
import {
  type AnyPlugin,
  createRegistry,
  customEntryType,
  customMessageType,
  definePlugin,
  type PluginRegistry,
} from "@pi-sessions/plugins";
import fc from "fast-check";
import { isLeft, isRight } from "fp-ts/lib/Either.js";
import * as t from "io-ts";
import { describe, expect, it } from "vitest";
import { fcParams } from "./plugin-fixtures.js";

const NAMES = ["a", "b", "c", "d", "e"];
const KEYS = ["k1", "k2", "k3", "k4", "k5", "k6"];

interface Spec {
  readonly name: string;
  readonly entries: readonly string[];
  readonly messages: readonly string[];
  readonly projections: readonly string[];
  readonly renderers: readonly string[];
}

const keys = fc.uniqueArray(fc.constantFrom(...KEYS), { maxLength: 2 });
const spec: fc.Arbitrary<Spec> = fc.record({
  name: fc.constantFrom(...NAMES),
  entries: keys,
  messages: keys,
  projections: keys,
  renderers: keys,
});

function build(s: Spec): AnyPlugin {
  return definePlugin({
    name: s.name,
    entryTypes: s.entries.map((customType) => customEntryType({ customType, data: t.unknown })),
    messageTypes: s.messages.map((customType) =>
      customMessageType({ customType, details: t.unknown }),
    ),
    projections: s.projections.map((name) =>
      defineProjection({ name, init: () => 0, apply: (n: number) => n }),
    ),
    messageRenderers: Object.fromEntries(s.renderers.map((k) => [k, () => k])),
  });
}

/** Every claim of a spec, tagged by kind (the model of collisions). */
const claims = (s: Spec): string[] => [
  `name:${s.name}`,
  ...s.entries.map((k) => `entry:${k}`),
  ...s.messages.map((k) => `message:${k}`),
  ...s.projections.map((k) => `projection:${k}`),
  ...s.renderers.map((k) => `renderer:${k}`),
];

/** Everything observable about a registry, order-free. */
function snapshot(r: PluginRegistry) {
  return {
    names: [...r.names].sort(),
    entries: KEYS.map((k) => r.entryType(k)?.plugin.name ?? null),
    messages: KEYS.map((k) => r.messageType(k)?.plugin.name ?? null),
    projections: r
      .projections()
      .map((p) => p.name)
      .sort(),
    renderers: KEYS.map((k) => (r.messageRenderer(k) ? k : null)),
  };
}

/** Specs with pairwise distinct claims, built by dropping the ones that collide. */
const distinctSpecs = fc.array(spec, { maxLength: 6 }).map((specs) => {
  const taken = new Set<string>();
  return specs.filter((s) => {
    const mine = claims(s);
    if (mine.some((c) => taken.has(c))) return false;
    for (const c of mine) taken.add(c);
    return true;
  });
});

describe("registry laws", () => {
  it(`register and tryRegister never change the registry they are called on (${fcParams(500).numRuns} runs)`, () => {
    fc.assert(
      fc.property(distinctSpecs, spec, fc.boolean(), (specs, next, override) => {
        const r = createRegistry(specs.map(build));
        const before = snapshot(r);
        const list = r.plugins;
        const plugins = [...list];
        r.tryRegister(build(next), { override });
        try {
          r.register(build(next), { override });
        } catch {
          // A refusal is fine; the point is that r is unchanged either way.
        }
        r.unregister(next.name);
        expect(snapshot(r)).toEqual(before);
        expect(r.plugins).toBe(list);
        expect([...r.plugins]).toEqual(plugins);
      }),
      fcParams(500),
    );
  });

  it(`plugins with distinct claims give the same registry in any order (${fcParams(500).numRuns} runs)`, () => {
    fc.assert(
      fc.property(
        distinctSpecs.chain((specs) =>
          fc.tuple(fc.constant(specs), fc.shuffledSubarray(specs, { minLength: specs.length })),
        ),
        ([specs, shuffled]) => {
          const built = new Map(specs.map((s) => [s, build(s)]));
          const r1 = createRegistry(specs.map((s) => built.get(s) as AnyPlugin));
          const r2 = createRegistry(shuffled.map((s) => built.get(s) as AnyPlugin));
          expect(snapshot(r2)).toEqual(snapshot(r1));
        },
      ),
      fcParams(500),
    );
  });

  it(`a registration is refused exactly when one of its claims is taken; override takes them (${fcParams(500).numRuns} runs)`, () => {
    fc.assert(
      fc.property(distinctSpecs, spec, (specs, next) => {
        const r = createRegistry(specs.map(build));
        const taken = new Set(specs.flatMap(claims));
        const collides = claims(next).some((c) => taken.has(c));
        const plugin = build(next);
        const result = r.tryRegister(plugin);
        expect(isLeft(result)).toBe(collides);
        if (isRight(result)) {
          expect(snapshot(result.right.unregister(next.name))).toEqual(snapshot(r));
        }
        const forced = r.register(plugin, { override: true });
        expect(forced.plugin(next.name)).toBe(plugin);
        expect(forced.names.filter((n) => n === next.name)).toHaveLength(1);
        for (const k of next.entries) expect(forced.entryType(k)?.plugin).toBe(plugin);
        for (const k of next.messages) expect(forced.messageType(k)?.plugin).toBe(plugin);
      }),
      fcParams(500),
    );
  });
});
