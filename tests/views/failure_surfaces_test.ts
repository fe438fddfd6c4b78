import assert from "node:assert/strict";
import { shorten } from "../../src/text/shorten.ts";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { cli, type CliRun } from "../helpers/cli.ts";
import { type FailureCase, failureCase, failureRun } from "../helpers/seeded_failure.ts";
import { textCell } from "../helpers/surface_read.ts";
import { benchmarkName } from "../../src/measure/measure_name.ts";
import { setLogSink } from "../../src/log.ts";
import { tempDir } from "../helpers/temp.ts";

/**
 * One owner for "what failed and why", for random failures (seeded: the
 * baseline's side failing the run, a candidate's or a sibling's candidate
 * side crashing it, by an exit code or no metric, with K = 1 and in rounds
 * of 2–3): every surface names the SAME failed measure, the job it ran in
 * and the cause that the record beside the eval dirs holds — failure.json
 * for a failed run, crashes.json for a crash — read in process: `show` (text
 * and `--json`), `wait --json`, `resume --json`, `runs` (text and `--json`)
 * and the reports (`report --md`, `--html`); the last test holds `runs` and
 * the reports to a crash's job and a round's reason to the measure that
 * crashed (a sibling's side too). A crashed measure's `show` row reads
 * `crashed`, a failed run's `failed`.
 */

const CASES = 40;
const FIRST_SEED = 7100;

// deno-lint-ignore no-explicit-any -- parsed --json output
type Json = any;

/** What failed, as the record beside the eval dirs keeps it. */
interface Failed {
  readonly measure: string;
  readonly jobId: string;
  readonly cause: string;
}

/** The ONE JSON object a `--json` command printed. */
function oneObject(at: string, r: CliRun): Json {
  const lines = r.stdout.split("\n").filter((l) => l.trim() !== "");
  assert.equal(lines.length, 1, `${at}: exactly one line on stdout, got ${JSON.stringify(r.stdout)}`);
  return JSON.parse(lines[0]!);
}

/** Whether `text` says `cause`, its first letter in either case (a headline capitalizes it). */
function saysCause(text: string, cause: string): boolean {
  return text.includes(cause) || text.includes(cause.charAt(0).toUpperCase() + cause.slice(1));
}

/** Asserts `text` names the measure, the job and the cause. */
function namesAll(at: string, text: string, f: Failed): void {
  assert.ok(text.includes(f.measure), `${at} names measure ${f.measure}: ${JSON.stringify(text)}`);
  assert.ok(new RegExp(`\\bjob ${f.jobId}\\b`).test(text), `${at} names job ${f.jobId}: ${JSON.stringify(text)}`);
  assert.ok(saysCause(text, f.cause), `${at} says the cause "${f.cause}": ${JSON.stringify(text)}`);
}

/** The text of an HTML fragment, tags stripped and entities read. */
function htmlText(html: string): string {
  return html.replace(/<[^>]*>/g, "").replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/** The case's failure from its record (failure.json or crashes.json), checked against what the case made. */
function recorded(at: string, c: FailureCase, dir: string, jobId: string): Failed {
  const failureFile = join(dir, "failure.json");
  const crashesFile = join(dir, "crashes.json");
  let r: Json;
  if (c.runFails) {
    assert.ok(existsSync(failureFile), `${at}: the baseline's side failed the run: failure.json`);
    assert.equal(existsSync(crashesFile), false, `${at}: no crash`);
    r = JSON.parse(readFileSync(failureFile, "utf8"));
  } else {
    assert.equal(existsSync(failureFile), false, `${at}: a candidate's crash does not fail the run`);
    const crashes = JSON.parse(readFileSync(crashesFile, "utf8")).crashes;
    assert.equal(crashes.length, 1, `${at}: one crash: ${JSON.stringify(crashes)}`);
    r = crashes[0];
  }
  assert.deepEqual([r.measure, r.job_id, r.kind], [c.measure, jobId, c.how], `${at}: the record`);
  if (c.how === "exit") assert.equal(r.cause, `eval command exited with code ${c.exitCode}`, at);
  else assert.match(r.cause, /metric "(score|ms)"/, `${at}: the cause names the metric`);
  return { measure: r.measure, jobId: r.job_id, cause: r.cause };
}

/** The round candidate a crashed measure belongs to (arm 1 `candidate`, arm 2 `candidate-2`, …). */
function armOf(measure: string): number {
  return Number(/-(\d+)(#\d+)?$/.exec(measure.replace(/^sib-lat-cand/, "candidate"))?.[1] ?? 1);
}

/** Every surface of one case that names what failed today; a failure names the seed (`failureCase(seed)`). */
async function checkCase(c: FailureCase): Promise<void> {
  const root = tempDir("failure-surfaces-");
  const { dir, compute, jobId, printed } = await failureRun(c, root);
  const at = `seed ${c.seed} (replay: failureCase(${c.seed}); K ${c.k}, ${c.measure} ${c.how}` +
    `${c.how === "exit" ? ` ${c.exitCode}` : ""}, repeats ${c.repeats}/${c.maxRepeats}, sibling ${c.sibling})`;
  const f = recorded(at, c, dir.path, jobId);
  const run = (args: string[]) => cli(args, { compute });

  // show: the measure's row (its job, the cause), and the run's failure or the candidate's crash
  const shown = await run(["show", dir.path]);
  assert.equal(shown.code, 0, `${at}: ${shown.stderr}`);
  const table = shown.stdout.split("\n").slice(1).join("\n");
  const row = table.split("\n").findIndex((l) => l.startsWith(`${f.measure} `));
  assert.ok(row > 0, `${at}: show lists ${f.measure}\n${shown.stdout}`);
  assert.equal(textCell(table, row, "job", "left"), f.jobId, `${at}: show's row names the job`);
  assert.equal(textCell(table, row, "state", "left"), c.runFails ? "failed" : "crashed", `${at}: show's row state`);
  assert.ok(saysCause(textCell(table, row, "detail", "left"), f.cause), `${at}: show's row says the cause`);
  if (c.runFails) {
    const line = /^failed on \S+: (.*)$/m.exec(shown.stdout);
    assert.ok(line, `${at}: show says the run failed\n${shown.stdout}`);
    namesAll(`${at}: show's failure`, line[1]!, f);
    for (const l of printed) assert.ok(shown.stdout.includes(l), `${at}: show gives the log's tail`);
  } else if (c.k === 1) {
    assert.ok(shown.stdout.includes(`crashed: ${f.cause} (measure "${f.measure}")`), `${at}: show's verdict reasons`);
  } else {
    // the round's table: the crashed candidate's verdict cell says so, with the cause
    const arm = benchmarkName(armOf(f.measure));
    const line = shown.stdout.split("\n").find((l) => l.startsWith(`${arm} `) && l.includes(" crashed: "));
    assert.ok(line?.endsWith(`crashed: ${f.cause}`), `${at}: show's round table\n${shown.stdout}`);
  }

  // show --json: the row, and the failure or the crash with all three
  const sj = oneObject(`${at}: show --json`, await run(["show", dir.path, "--json"]));
  const srow = sj.measures.find((m: Json) => m.name === f.measure);
  assert.equal(srow?.job_id, f.jobId, `${at}: show --json row`);
  assert.equal(srow?.state, c.runFails ? "failed" : "crashed", `${at}: show --json row state`);
  if (c.runFails) {
    assert.equal(sj.state, "failed", at);
    assert.deepEqual([sj.failure.measure, sj.failure.job_id, sj.failure.cause], [f.measure, f.jobId, f.cause], at);
    assert.deepEqual(sj.crashes, [], at);
  } else {
    assert.equal(sj.state, "decided", at);
    assert.deepEqual(sj.crashes.map((x: Json) => [x.measure, x.job_id, x.cause]), [[f.measure, f.jobId, f.cause]], at);
    const crash = c.k === 1 ? sj.crash : sj.round.candidates.find((x: Json) => x.arm === armOf(f.measure)).crash;
    assert.deepEqual([crash.measure, crash.job_id, crash.cause], [f.measure, f.jobId, f.cause], `${at}: show --json`);
    assert.equal(sj.failure, null, at);
  }

  // wait --json and resume --json: one object each, with the exit code of what happened
  for (const verb of ["wait", "resume"]) {
    const r = await run([verb, dir.path, "--json"]);
    const j = oneObject(`${at}: ${verb} --json`, r);
    if (c.runFails) {
      assert.equal(r.code, 3, `${at}: ${verb} exits 3`);
      assert.deepEqual([j.status, j.state, j.error.kind], ["error", "failed", "eval-failed"], `${at}: ${verb}`);
      assert.deepEqual([j.failure.measure, j.failure.job_id, j.failure.cause], [f.measure, f.jobId, f.cause], at);
      namesAll(`${at}: ${verb} --json's error`, j.error.message.split("\n")[0], f);
    } else if (c.k === 1) {
      assert.equal(r.code, 12, `${at}: ${verb} exits 12, the candidate crashed`);
      assert.equal(j.verdict, "crashed", at);
      assert.deepEqual([j.crash.measure, j.crash.job_id, j.crash.cause], [f.measure, f.jobId, f.cause], at);
    } else {
      assert.equal(r.code, { accept: 0, reject: 10, inconclusive: 11, crashed: 12 }[j.verdict as string], at);
      const arm = j.candidates.find((x: Json) => x.arm === armOf(f.measure));
      assert.deepEqual([arm.verdict, arm.because], ["crashed", "crashed"], `${at}: ${verb} --json candidate`);
      assert.deepEqual([arm.crash.measure, arm.crash.job_id, arm.crash.cause], [f.measure, f.jobId, f.cause], at);
    }
  }

  // runs: the failure line, or the crashed verdict with its cause
  const runsText = (await run(["runs", root])).stdout;
  const runsJson = oneObject(`${at}: runs --json`, await run(["runs", root, "--json"])).runs[0];
  if (c.runFails) {
    const line = /^ {2}failed: (.*)$/m.exec(runsText);
    assert.ok(line, `${at}: runs gives the failure\n${runsText}`);
    namesAll(`${at}: runs`, line[1]!, f);
    assert.equal(runsJson.state, "failed", at);
    namesAll(`${at}: runs --json failure`, runsJson.failure, f);
  } else {
    // the verdict cell is cut at 48 characters: one long cause must not widen every row (show and --json keep it whole)
    assert.ok(runsText.includes(shorten(`crashed: ${f.cause}`, 48)), `${at}: runs says crashed and why\n${runsText}`);
    const crash = c.k === 1
      ? runsJson.crash
      : runsJson.round.candidates.find((x: Json) => x.arm === armOf(f.measure)).crash;
    assert.deepEqual([crash.measure, crash.cause], [f.measure, f.cause], `${at}: runs --json crash`);
  }

  // the reports: Markdown and HTML
  const md = (await run(["report", dir.path, "--md"])).stdout;
  const file = join(root, "report.html");
  assert.equal((await run(["report", dir.path, "--html", file])).code, 0, at);
  const html = readFileSync(file, "utf8");
  if (c.runFails) {
    const mdLine = /^\*\*Failed:\*\* (.*)$/m.exec(md);
    assert.ok(mdLine, `${at}: the Markdown report gives the failure\n${md}`);
    namesAll(`${at}: report --md`, mdLine[1]!, f);
    const p = /<p class="failure"><strong>Failed:<\/strong> ([\s\S]*?)<\/p>/.exec(html);
    assert.ok(p, `${at}: the HTML report gives the failure`);
    namesAll(`${at}: report --html`, htmlText(p[1]!), f);
  } else {
    const sentence = `crashed: ${f.cause} (measure ${f.measure})`;
    assert.ok(md.includes(sentence), `${at}: report --md says "${sentence}"\n${md}`);
    assert.ok(htmlText(html).includes(sentence), `${at}: report --html says "${sentence}"`);
    for (const l of printed) assert.ok(md.includes(l), `${at}: the Markdown report gives the crash's log tail`);
  }
}

/** Where a crash's job id and state are not shown yet: the assertions that hold once they are. */
async function checkCrashJobEverywhere(c: FailureCase): Promise<void> {
  const root = tempDir("failure-surfaces-todo-");
  const { dir, compute, jobId } = await failureRun(c, root);
  const at = `seed ${c.seed} (replay: failureCase(${c.seed}))`;
  const f = recorded(at, c, dir.path, jobId);
  const run = (args: string[]) => cli(args, { compute });
  const shown = (await run(["show", dir.path])).stdout;
  // a round's reason for a crashed candidate names the measure that crashed (a sibling's too)
  assert.ok(shown.includes(`crashed: ${f.cause} (measure "${f.measure}")`), `${at}: show's verdict reasons`);
  const runsJson = oneObject(at, await run(["runs", root, "--json"])).runs[0];
  const crash = c.k === 1
    ? runsJson.crash
    : runsJson.round.candidates.find((x: Json) => x.arm === armOf(f.measure)).crash;
  assert.equal(crash.job_id, f.jobId, `${at}: runs --json crash job_id`);
  const runsText = (await run(["runs", root])).stdout;
  assert.ok(runsText.includes(f.measure) && new RegExp(`\\bjob ${f.jobId}\\b`).test(runsText), `${at}: runs`);
  assert.ok(runsText.includes(shorten(`crashed: ${f.cause}`, 48)), `${at}: runs says the cause, cut at 48`);
  namesAll(`${at}: report --md`, (await run(["report", dir.path, "--md"])).stdout, f);
}

/** Every case, and that the seeds cover each side failing, for K = 1 and rounds, by an exit and by no metric. */
async function allCases(): Promise<void> {
  const kinds = new Set<string>();
  for (let seed = FIRST_SEED; seed < FIRST_SEED + CASES; seed++) {
    const c = failureCase(seed);
    kinds.add(`${c.k === 1 ? "K1" : "round"} ${c.side} ${c.how}`);
    await checkCase(c).catch((err: Error) => {
      throw new Error(`seed ${seed} (replay: failureCase(${seed})): ${err.message}`, { cause: err });
    });
  }
  for (const shape of ["K1", "round"]) {
    for (const side of ["baseline", "candidate", "sibling-base", "sibling-cand"]) {
      assert.ok([...kinds].some((k) => k.startsWith(`${shape} ${side} `)), `${shape} ${side}: ${[...kinds]}`);
    }
  }
  for (const how of ["exit", "no-metric"]) assert.ok([...kinds].some((k) => k.endsWith(how)), `${how}: ${[...kinds]}`);
}

describe("every surface names the same failed measure, job and cause (property, seeded)", () => {
  it(
    `holds for ${CASES} random failures, seeds ${FIRST_SEED}..${FIRST_SEED + CASES - 1}`,
    { timeout: 180_000 },
    async () => {
      const restore = setLogSink(() => {}); // the passes' logs: what each surface says is what is checked
      try {
        await allCases();
      } finally {
        restore();
      }
    },
  );

  it(
    "runs and the reports name a crash's job, and a round's reason its crashed measure",
    {
      timeout: 60_000,
    },
    async () => {
      for (let seed = FIRST_SEED; seed < FIRST_SEED + CASES; seed++) {
        const c = failureCase(seed);
        if (!c.runFails) await checkCrashJobEverywhere(c);
      }
    },
  );
});
