import assert from "node:assert/strict";
import { join } from "node:path";
import { describe, it } from "node:test";
import { reportCommand } from "../../../src/cli/commands/report.ts";
import { parseArgs } from "../../../src/cli/flags.ts";
import { tempDir } from "../../helpers/temp.ts";

const parse = (argv: string[]) => reportCommand.parse(parseArgs("report", reportCommand.args, argv), {});

describe("report: parse", () => {
  const dir = tempDir("report-parse-");

  it("takes a run dir or climb and exactly one of --md and --html FILE", () => {
    assert.deepEqual(parse([dir, "--md"]), { path: dir, format: { kind: "md" } });
    assert.deepEqual(parse([dir, "--html", join(dir, "r.html")]), {
      path: dir,
      format: { kind: "html", file: join(dir, "r.html") },
    });
  });

  it("refuses both formats, neither, an empty file name and a path that is not a directory", () => {
    assert.throws(() => parse([dir, "--md", "--html", "x.html"]), /Give exactly one of --md and --html FILE/);
    assert.throws(() => parse([dir]), /Give exactly one of --md and --html FILE/);
    assert.throws(() => parse([dir, "--html", " "]), /Invalid --html "": name the file to write/);
    assert.throws(() => parse([join(dir, "nope"), "--md"]), /is not a directory/);
  });
});
