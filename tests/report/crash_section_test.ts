import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { crashesOf, crashHtml, crashMarkdown } from "../../src/report/crash_section.ts";
import { renderClimbHtml } from "../../src/report/html_climb.ts";
import { renderRunHtml } from "../../src/report/html_run.ts";
import { climbMarkdown, runMarkdown } from "../../src/report/markdown.ts";
import { runsJson } from "../../src/report/runs_json.ts";
import { formatRunsTable } from "../../src/report/runs_table.ts";
import { tally } from "../../src/report/format.ts";
import { CRASH, crashedRound, crashedRun, makeRun } from "../helpers/report_fixtures.ts";
import { elements, svgById } from "../helpers/surface_read.ts";

describe("crashesOf()", () => {
  it("names a run's crashed candidate, or each crashed candidate of a round; none for other verdicts", () => {
    assert.deepEqual(crashesOf(crashedRun()), [{ who: "the candidate", crash: CRASH }]);
    assert.deepEqual(crashesOf(crashedRound()).map((c) => [c.who, c.crash.measure]), [[
      "candidate-3 (c3)",
      "candidate-3#2",
    ]]);
    assert.deepEqual(crashesOf(makeRun()), []);
  });
});

describe("a crashed candidate in the Markdown", () => {
  it("heads the run's report with `crashed`, then the cause and the end of its log, fenced safely", () => {
    const md = runMarkdown(crashedRun());
    assert.match(md, /^### `pi`: crashed\n/);
    assert.match(
      md,
      /\*\*Crashed:\*\* the candidate crashed: eval exited with code 1 \(measure candidate#2\) in job 4242_1\./,
    );
    assert.match(md, /\n```\nTraceback \(most recent call last\):\n[\s\S]*ValueError: bad \| `input`\n```\n/);
    assert.doesNotMatch(md, /\*\*Failed:\*\*/, "a crash is not a failed run");
    assert.deepEqual(crashMarkdown(makeRun()), []);
  });

  it("gives a round's crashed candidate its cause in the candidates' table, and the climb's rows", () => {
    const md = runMarkdown(crashedRound());
    assert.match(md, /\*\*Crashed:\*\* candidate-3 \(c3\) crashed: eval exited with code 1/);
    assert.match(
      md,
      /\| `candidate-3` \| `c3` \| `2222222222` \| crashed at pair 2 \| crashed: eval exited with code 1 \|/,
    );
    const climb = climbMarkdown([makeRun(), crashedRun(), crashedRound()]);
    assert.match(climb, /^### Climb of `pi`: 3 runs \(2 accept, 1 crashed\)/);
    assert.match(climb, /\| `r-crash` \|[^\n]*\| crashed: eval exited with code 1 \|/);
    assert.match(climb, /\| ↳ `candidate-3` \|[^\n]*\| crashed: eval exited with code 1 \|/);
  });
});

describe("a crashed candidate in the HTML", () => {
  it("has a crashed badge (neither reject nor failed), the cause and the log's end, escaped", () => {
    const html = renderRunHtml(crashedRun());
    assert.match(html, /<span class="badge badge-crashed">crashed<\/span>/);
    assert.match(html, /<p class="failure crashed"><strong>Crashed:<\/strong> the candidate crashed: eval exited/);
    assert.match(html, /<pre class="log"[^>]*>Traceback[\s\S]*in &lt;module&gt;\nValueError: bad \| `input`<\/pre>/);
    assert.doesNotMatch(html, /<strong>Failed:/);
    assert.deepEqual(crashHtml(makeRun()), []);
  });

  it("greys a round's crashed candidate like a dropped one, with a marker of its own, in the round's and the climb's charts", () => {
    const round = svgById(renderRunHtml(crashedRound()), "round-");
    const mark = elements(round, (e) => e.attrs["data-point"] === "improvement" && e.attrs["data-arm"] === "3");
    assert.equal(mark.length, 1);
    assert.equal(mark[0]!.attrs["stroke"], "#8c959f", "greyed");
    assert.match(
      round,
      /<g class="arm dropped" opacity="0.75"><line[^>]*data-arm="3"|<g class="arm dropped" opacity="0.75"><path[^>]*data-arm="3"/,
    );
    const climb = renderClimbHtml([makeRun(), crashedRound()]);
    const chart = svgById(climb, "improvement-");
    assert.match(chart, /<g class="arm crashed" opacity="0.75"><path[^>]*data-arm="3"[^>]*stroke="#8c959f"/);
    assert.match(climb, /crashed: its eval failed \(greyed\)/, "in the legend");
    assert.match(climb, /<span class="nobr">↳ candidate-3<\/span> \(crashed: eval exited with code 1\)/);
    // a run whose one candidate crashed has no improvement: its cross on the bottom edge, named so in the legend
    const single = renderClimbHtml([makeRun(), crashedRun()]);
    const at = single.indexOf('id="improvement-');
    const improvements = single.slice(at, single.indexOf("</figure>", at));
    assert.match(improvements, /<g class="arm crashed" opacity="0.75"><path[^>]*data-point="crash"/);
    assert.match(improvements, /crashed, no value: on the bottom edge \(greyed\)/, "in the legend");
    assert.doesNotMatch(improvements, /crashed: its eval failed \(greyed\)/, "not the entry of a crash with a value");
  });

  it("counts crashed runs apart in the climb's tally", () => {
    assert.deepEqual(tally([makeRun(), crashedRun(), makeRun({ verdict: "reject" })]), [
      ["accept", 1],
      ["reject", 1],
      ["crashed", 1],
    ]);
    assert.match(renderClimbHtml([makeRun(), crashedRun()]), /badge-crashed">1 crashed</);
  });
});

describe("a crashed candidate in the runs table and --json", () => {
  it("says crashed with the cause in the verdict column, for a run and a round's candidate", () => {
    const lines = formatRunsTable([crashedRun(), crashedRound()]).split("\n");
    assert.match(lines.find((l) => l.startsWith("r-crash ")) ?? "", / decided +crashed: eval exited with code 1 /);
    assert.match(lines.find((l) => l.startsWith("  candidate-3 ")) ?? "", / crashed: eval exited with code 1 /);
  });

  it("names the crashed measure and its job on the line under the run or the candidate", () => {
    const lines = formatRunsTable([crashedRun(), crashedRound()]).split("\n");
    const run = lines.findIndex((l) => l.startsWith("r-crash "));
    assert.equal(lines[run + 1], "  crashed: measure candidate#2 in job 4242_1");
    const arm = lines.findIndex((l) => l.startsWith("  candidate-3 "));
    assert.equal(lines[arm + 1], "  crashed: measure candidate-3#2 in job 4242_1");
  });

  it("gives the crash's measure, cause and log tail; null for a run or candidate that did not crash", () => {
    const [run, round] = runsJson([crashedRun(), crashedRound()]).runs;
    assert.equal(run!.verdict, "crashed");
    assert.deepEqual(run!.crash, {
      measure: "candidate#2",
      job_id: "4242_1",
      cause: CRASH.cause,
      log_tail: CRASH.logTail,
    });
    assert.equal(round!.crash, null);
    const arms = round!.round!.candidates;
    assert.deepEqual(arms.map((a) => a.crash?.measure ?? null), [null, null, "candidate-3#2"]);
    assert.equal(arms[2]!.verdict, "crashed");
  });
});
