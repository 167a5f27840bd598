/**
 * A plugin's own entry type with how it reads: core's definition (`defineEntryType`: wire
 * name, codec, reference fields) paired with a view — one summary line and a description the
 * formatter writes in every output. The view gets the entry as the definition's codec decoded
 * it; an entry that fails the codec (a file edited by hand) is never handed to it.
 */
import {
  type AnyEntryTypeDefinition,
  type EntryOfDefinition,
  formatSchemaIssue,
  ownEntryTypeProblem,
} from "@pi-sessions/core";
import { decodeWith } from "@pi-sessions/core/internal";
import { isLeft } from "fp-ts/lib/Either.js";
import { type EntryDescription, plainTitle } from "./entry-description.js";

/** How entries of one wire type read; `A` is the entry its codec decodes. */
export interface WireTypeView<A> {
  /** The one plain line a tree or a picker shows. Default: the description's title as text. */
  summary?(entry: A): string;
  /** Its title and parts. Default: the wire name as the title, and the entry's JSON. */
  describe?(entry: A): EntryDescription;
}

/** A wire type and its view, as a plugin's `wireTypes` lists it (see {@link wireType}). */
export interface WireType<D extends AnyEntryTypeDefinition = AnyEntryTypeDefinition> {
  /** Tells a `wireType` from a bare definition in a plugin's `wireTypes`. */
  readonly kind: "wire";
  /** Core's definition: wire name, codec, reference fields. */
  readonly definition: D;
  /** How its entries read. */
  readonly view: WireTypeView<EntryOfDefinition<D>>;
}

/**
 * Pairs a definition made by core's `defineEntryType` with how its entries read. Throws a
 * `TypeError` for a definition `defineEntryType` did not make, a built-in type's name (those
 * read as the defaults say), or a view whose members are not functions. Frozen.
 */
export function wireType<const D extends AnyEntryTypeDefinition>(
  definition: D,
  view: WireTypeView<EntryOfDefinition<D>> = {},
): WireType<D> {
  const name = `entry type ${JSON.stringify(String(definition?.type))}`;
  const problem = ownEntryTypeProblem(definition, "its rendering is the default one");
  if (problem !== undefined) throw new TypeError(problem);
  for (const key of ["summary", "describe"] as const) {
    if (view[key] !== undefined && typeof view[key] !== "function") {
      throw new TypeError(`${name}: ${key} must be a function`);
    }
  }
  return Object.freeze({ kind: "wire", definition, view: Object.freeze({ ...view }) });
}

/** Whether `value` is a {@link WireType} (as opposed to a bare definition). */
export function isWireType(value: unknown): value is WireType {
  return (value as { kind?: unknown } | null)?.kind === "wire";
}

/** The entry decoded by the wire type's codec; throws, naming every issue, when it does not match. */
function decoded(wire: WireType, entry: unknown): EntryOfDefinition<AnyEntryTypeDefinition> {
  const result = decodeWith(wire.definition.codec, entry);
  if (isLeft(result)) {
    const issues = result.left.map(formatSchemaIssue).join("; ");
    throw new Error(`it does not match its definition: ${issues}`);
  }
  return result.right;
}

/** How `entry` reads by its wire type; throws when it fails the codec or the view throws. */
export function describeWireEntry(wire: WireType, entry: unknown): EntryDescription {
  const value = decoded(wire, entry);
  const description = wire.view.describe?.(value);
  return description ?? { title: wire.definition.type, parts: [{ json: entry }] };
}

/** The one-line summary of `entry` by its wire type; throws as {@link describeWireEntry}. */
export function wireSummary(wire: WireType, entry: unknown): string {
  const summary = wire.view.summary;
  const line = summary ? summary(decoded(wire, entry)) : plainTitle(describeWireEntry(wire, entry));
  if (typeof line !== "string") throw new TypeError(`summary returned ${typeof line}`);
  return line;
}
