import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type CliCommand, defineLeaf } from "../../src/cli/command.ts";
import { parseArgs } from "../../src/cli/flags.ts";
import type { CliDeps } from "../../src/cli/shared/io.ts";

describe("defineLeaf()", () => {
  it("gives back the command as declared: its parse step's options are its execute step's", async () => {
    const spec: CliCommand<{ word: string }> = {
      meta: { name: "echo", description: "Echo a word" },
      args: { WORD: { type: "positional", description: "The word" } },
      parse: (args) => ({ word: args.positional["WORD"] ?? "" }),
      execute: (o) => Promise.resolve(o.word.length),
    };
    const c = defineLeaf(spec);
    assert.equal(c, spec);
    const options = c.parse(parseArgs("echo", c.args, ["abc"]), {});
    assert.equal(await c.execute(options, {} as CliDeps), 3);
  });
});
