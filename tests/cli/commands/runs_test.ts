import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { runsCommand } from "../../../src/cli/commands/runs.ts";
import { parseArgs } from "../../../src/cli/flags.ts";
import { tempDir } from "../../helpers/temp.ts";

const parse = (argv: string[]) => runsCommand.parse(parseArgs("runs", runsCommand.args, argv), {});

describe("runs: parse", () => {
  it("takes the climb's directory, resolved, with --live and --json", () => {
    const dir = tempDir("runs-parse-");
    assert.deepEqual(parse([dir, "--live", "--json"]), { dir, live: true, json: true, tsv: false });
  });

  it("takes --tsv, and refuses it with --json", () => {
    const dir = tempDir("runs-parse-");
    assert.deepEqual(parse([dir, "--tsv"]), { dir, live: false, json: false, tsv: true });
    assert.throws(() => parse([dir, "--tsv", "--json"]), /Give --json or --tsv, not both/);
  });

  it("refuses a DIR that is not a directory", () => {
    const missing = join(tempDir("runs-parse-"), "nope");
    assert.throws(() => parse([missing]), /DIR ".*nope" is not a directory/);
  });
});
