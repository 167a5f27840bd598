/**
 * The options that set up a pool's connections are the store's to apply only to a pool it
 * makes: beside a pool of the caller's they would do nothing, so `connect` refuses them,
 * saying what to set on the pool instead, before it touches the pool.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { poolOf } from "../src/store-options.js";

describe("options beside a pool of yours", () => {
  // Never connected: `poolOf` only hands the pool over or refuses.
  const pool = new pg.Pool({ connectionString: "postgres://nobody@127.0.0.1:1/none" });

  it.each([
    ["applicationName", { applicationName: "agent" }, /application_name: …/],
    ["statementTimeoutMs", { statementTimeoutMs: 500 }, /statement_timeout: …/],
    ["synchronousCommit", { synchronousCommit: "off" as const }, /-c synchronous_commit=…/],
  ])("%s is refused, naming the pool's own setting", (name, option, instead) => {
    const refused = () => poolOf({ pool, ...option });
    expect(refused).toThrow(new RegExp(`^${name} applies to the pool the store makes`));
    expect(refused).toThrow(instead);
  });

  it("without them the pool is the store's, as given (a connection string beside it is ignored)", () => {
    expect(poolOf({ pool, connectionString: "postgres://elsewhere/db" })).toBe(pool);
  });

  it("without a pool they set up the connections of the one the store makes", () => {
    const made = poolOf({
      connectionString: "postgres://nobody@127.0.0.1:1/none",
      applicationName: "agent",
      statementTimeoutMs: 500,
      synchronousCommit: "off",
    });
    expect(made).not.toBe(pool);
    expect(made.options).toMatchObject({
      application_name: "agent",
      statement_timeout: 500,
      options: "-c synchronous_commit=off",
    });
  });
});
