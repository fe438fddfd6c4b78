import { measureArgv } from "../helpers/measure_argv.ts";
import assert from "node:assert/strict";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, describe, it } from "node:test";
import { renderClimbHtml } from "../../src/report/html_climb.ts";
import { renderRunHtml } from "../../src/report/html_run.ts";
import { runtimeName } from "../../src/runtime/detect.ts";
import {
  browser,
  browserIt,
  chromiumTmp,
  decideBrowser,
  groupMembers,
  launchBrowser,
  type RunningBrowser,
} from "../helpers/browser.ts";
import { Cdp, loadPage } from "../helpers/cdp.ts";
import {
  calibrationRun,
  climbFixture,
  crashedRound,
  crashedRun,
  makeRun,
  nastyRun,
  repeatRun,
  timingClimb,
} from "../helpers/report_fixtures.ts";
import { formatSigned } from "../../src/report/format.ts";
import { LocalCompute } from "../../src/compute/local.ts";
import { cli } from "../helpers/cli.ts";
import { makeRepo } from "../helpers/git_repo.ts";
import { seededRun, stalledTimingCase, timingCase } from "../helpers/seeded_run.ts";
import { agrees, estimateAgrees, intervalIn } from "../helpers/surface_read.ts";
import { roundCase, roundRun } from "../helpers/seeded_round.ts";

/**
 * A real climb on the local backend, made by the CLI: three `measure` runs
 * (accept, reject, accept) of a benchmark whose score is a file's content,
 * in `<parent>/climb`; its path.
 */
async function localClimb(parent: string): Promise<string> {
  const bench = (score: string) => ({ "bench.sh": 'printf \'{"score": %s}\\n\' "$(cat score)"\n', score });
  const { repo, shas } = makeRepo([bench("10"), bench("12"), bench("11.5"), bench("13")], join(parent, "repo"));
  const contract = join(parent, "contract.json");
  writeFileSync(
    contract,
    JSON.stringify({ name: "toy", command: "sh bench.sh", metric: "score", direction: "maximize", eval_minutes: 1 }),
  );
  const compute = new LocalCompute({ env: { PATH: "/usr/bin:/bin", HOME: parent } });
  const climb = join(parent, "climb");
  const runs: [number, number, number][] = [[0, 1, 0], [1, 2, 10], [1, 3, 0]];
  for (const [i, [base, cand, verdict]] of runs.entries()) {
    const runDir = join(climb, `r${i + 1}`);
    const r = await cli(
      measureArgv({ compute: "local", repo, base: shas[base]!, candidate: shas[cand]!, contract, runDir }),
      { compute, now: Date.parse("2026-01-02T03:04:05Z") + i * 60_000 },
    );
    assert.equal(r.code, verdict, r.stderr);
  }
  return climb;
}

/**
 * Where screenshots go, when a person or CI asks for them: `OUTERLOOP_ARTIFACTS` (CI keeps that dir as its
 * artifacts). Without it none is kept. One file per page and runtime, overwritten by the next run, never
 * piling up run after run.
 */
const ARTIFACTS = process.env["OUTERLOOP_ARTIFACTS"] ?? "";
const SHOTS = ARTIFACTS === "" ? null : join(ARTIFACTS, "report-shots");
const COUNT_POINTS = "document.querySelectorAll('[data-point]').length";

/** The width the reports must fit: a laptop's browser window. */
const READING_WIDTH = 1200;

/**
 * What a reader sees, read from the laid-out page: where (in screen pixels)
 * the difference chart puts zero, each pair's dot and the mean marker; every
 * table cell wider than its column (its content overflows) and every table
 * box that scrolls sideways; the facts list; the difference table's rows.
 */
const WHAT_A_READER_SEES = `(() => {
  const centre = (el) => { const b = el.getBoundingClientRect(); return b.left + b.width / 2; };
  const svg = document.querySelector('svg[id^="diff-"]');
  const mean = svg && svg.querySelector('[data-point="mean"]');
  const table = [...document.querySelectorAll("table")].find((t) => t.caption?.textContent.startsWith("Difference"));
  // zero is the solid grey line across the plot, min_effect the dashed one (the classes name them)
  const zero = svg && (svg.querySelector("line.zero") ??
    [...svg.querySelectorAll('line[stroke-width="1.5"]')].find((l) => !l.hasAttribute("stroke-dasharray")));
  const minEffect = svg && (svg.querySelector("line.min-effect") ?? svg.querySelector('line[stroke-dasharray="6 4"]'));
  return {
    zero: zero ? centre(zero) : null,
    minEffect: minEffect ? centre(minEffect) : null,
    dots: svg ? [...svg.querySelectorAll('[data-point="pair"]')].map((e) => centre(e)) : [],
    mean: mean ? centre(mean) : null,
    overflowing: [...document.querySelectorAll("td, th")].filter((c) => c.scrollWidth > c.clientWidth)
      .map((c) => c.textContent + " (" + c.scrollWidth + " > " + c.clientWidth + ")"),
    scrolling: [...document.querySelectorAll(".table-wrap")].filter((w) => w.scrollWidth > w.clientWidth || w.scrollHeight > w.clientHeight)
      .map((w) => w.querySelector("caption")?.textContent + " (" + w.scrollWidth + "×" + w.scrollHeight + " > " + w.clientWidth + "×" + w.clientHeight + ")"),
    facts: Object.fromEntries([...document.querySelectorAll(".facts dt")].map((dt) => [dt.textContent, dt.nextElementSibling.textContent])),
    rows: table ? [...table.querySelectorAll("tbody tr")].map((tr) => [...tr.cells].map((c) => c.textContent)) : [],
  };
})()`;

/** What `WHAT_A_READER_SEES` returns. */
interface ReaderView {
  zero: number | null;
  minEffect: number | null;
  dots: number[];
  mean: number | null;
  overflowing: string[];
  scrolling: string[];
  facts: Record<string, string>;
  rows: string[][];
}

/**
 * What a reader sees of a run with a pair set aside and samples: each
 * difference dot's centre (its value, whether it is set aside, its painted
 * fill), the zero line and the mean marker; in the values chart every
 * marker's centre and every whisker's box with the samples it stands for;
 * the legends' words; whether any table overflows.
 */
const WHAT_A_READER_SEES_OF_A_STALL = `(() => {
  const centre = (el) => { const b = el.getBoundingClientRect(); return b.left + b.width / 2; };
  const diff = document.querySelector('svg[id^="diff-"]');
  const values = document.querySelector('svg[id^="values-"]');
  return {
    zero: centre(diff.querySelector("line.zero")),
    mean: centre(diff.querySelector('[data-point="mean"]')),
    meanValue: Number(diff.querySelector('[data-point="mean"]').dataset.value),
    dots: [...diff.querySelectorAll('[data-point="pair"]')].map((e) => ({
      x: centre(e), value: Number(e.dataset.value), aside: e.dataset.setAside === "true", fill: getComputedStyle(e).fill,
    })),
    markers: [...values.querySelectorAll('[data-point][data-measure]')].map((e) => ({ name: e.dataset.measure, x: centre(e) })),
    whiskers: [...values.querySelectorAll('.whisker')].map((e) => {
      const b = e.getBoundingClientRect();
      return { name: e.dataset.measure, left: b.left, right: b.right, min: Number(e.dataset.min), max: Number(e.dataset.max) };
    }),
    // a legend item's words, beside its marker's picture
    legend: [...document.querySelectorAll(".legend li")].map((li) => [...li.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("")),
    overflowing: [...document.querySelectorAll("td, th")].filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent),
    scrolling: [...document.querySelectorAll(".table-wrap")].filter((w) => w.scrollWidth > w.clientWidth || w.scrollHeight > w.clientHeight)
      .map((w) => w.querySelector("caption")?.textContent),
  };
})()`;

/** What `WHAT_A_READER_SEES_OF_A_STALL` returns. */
interface StallView {
  zero: number;
  mean: number;
  meanValue: number;
  dots: { x: number; value: number; aside: boolean; fill: string }[];
  markers: { name: string; x: number }[];
  whiskers: { name: string; left: number; right: number; min: number; max: number }[];
  legend: string[];
  overflowing: string[];
  scrolling: string[];
}

/**
 * What a reader sees of a round's page: in the candidates chart, where (in
 * screen pixels) zero is, each improvement marker (its arm, stage, value,
 * whether it is the winner or dropped, its painted fill and its group's
 * opacity) and each interval line's ends; the "winner" label; the legend's
 * words; every table cell wider than its column and every table box that
 * scrolls sideways.
 */
const WHAT_A_READER_SEES_OF_A_ROUND = `(() => {
  const centre = (el) => { const b = el.getBoundingClientRect(); return b.left + b.width / 2; };
  const svg = document.querySelector('svg[id^="round-"]');
  const opacity = (el) => Number(getComputedStyle(el.closest("g.arm")).opacity);
  return {
    zero: centre(svg.querySelector("line.zero")),
    minEffect: centre(svg.querySelector("line.min-effect")),
    points: [...svg.querySelectorAll('[data-point="improvement"]')].map((e) => ({
      arm: Number(e.dataset.arm), stage: e.dataset.stage, value: Number(e.dataset.value), x: centre(e),
      winner: e.dataset.winner === "true", dropped: e.dataset.dropped === "true",
      fill: getComputedStyle(e).fill, opacity: opacity(e),
    })),
    intervals: [...svg.querySelectorAll("line.interval")].map((e) => {
      const b = e.getBoundingClientRect();
      return { arm: Number(e.dataset.arm), stage: e.dataset.stage, left: b.left, right: b.right,
        lower: Number(e.dataset.lower), upper: Number(e.dataset.upper), stroke: getComputedStyle(e).stroke };
    }),
    winnerLabel: [...svg.querySelectorAll("text")].some((t) => t.textContent === "winner"),
    legend: [...document.querySelectorAll(".legend li")].map((li) => li.textContent),
    overflowing: [...document.querySelectorAll("td, th")].filter((c) => c.scrollWidth > c.clientWidth)
      .map((c) => c.textContent + " (" + c.scrollWidth + " > " + c.clientWidth + ")"),
    scrolling: [...document.querySelectorAll(".table-wrap")].filter((w) => w.scrollWidth > w.clientWidth || w.scrollHeight > w.clientHeight)
      .map((w) => w.querySelector("caption")?.textContent + " (" + w.scrollWidth + "×" + w.scrollHeight + " > " + w.clientWidth + "×" + w.clientHeight + ")"),
  };
})()`;

/** What `WHAT_A_READER_SEES_OF_A_ROUND` returns. */
interface RoundView {
  zero: number;
  minEffect: number;
  points: {
    arm: number;
    stage: string;
    value: number;
    x: number;
    winner: boolean;
    dropped: boolean;
    fill: string;
    opacity: number;
  }[];
  intervals: {
    arm: number;
    stage: string;
    left: number;
    right: number;
    lower: number;
    upper: number;
    stroke: string;
  }[];
  winnerLabel: boolean;
  legend: string[];
  overflowing: string[];
  scrolling: string[];
}

/**
 * What a reader sees of a climb's improvement chart: where (in screen
 * pixels, y downward) zero and min_effect are, each marker's value and
 * centre (a winner's, an accepted run's, a dropped candidate's), each mark
 * of an interval cut at the edge with its tooltip, the plot's and the
 * y-axis title's boxes, and every table box that scrolls (either way).
 */
const WHAT_A_READER_SEES_OF_A_CLIMB = `(() => {
  const middle = (el) => { const b = el.getBoundingClientRect(); return b.top + b.height / 2; };
  const box = (el) => { const b = el.getBoundingClientRect(); return { left: b.left, right: b.right, top: b.top, bottom: b.bottom }; };
  const svg = document.querySelector('svg[id^="improvement-"]');
  const title = svg.querySelector("text.y-title");
  return {
    zero: middle(svg.querySelector("line.zero")),
    minEffect: middle(svg.querySelector("line.min-effect")),
    points: [...svg.querySelectorAll('[data-point="improvement"]')].map((e) => ({
      run: e.dataset.run, arm: e.dataset.arm ?? null, value: Number(e.dataset.value), y: middle(e),
      winner: e.dataset.winner === "true", dropped: e.dataset.dropped === "true", verdict: e.dataset.verdict,
      clipped: e.dataset.clipped === "mean", tip: e.querySelector("title").textContent,
    })),
    cuts: [...svg.querySelectorAll("path.clipped")].map((e) => ({
      end: e.dataset.clipped, value: Number(e.dataset.value), y: middle(e), tip: e.querySelector("title").textContent,
    })),
    svg: box(svg),
    // a vertical grid line runs from the plot's top to its bottom
    plot: box(svg.querySelector("g.x-axis line")),
    title: title ? { text: title.textContent, ...box(title) } : null,
    scrolling: [...document.querySelectorAll(".table-wrap")]
      .filter((w) => w.scrollWidth > w.clientWidth || w.scrollHeight > w.clientHeight)
      .map((w) => w.querySelector("caption")?.textContent),
    overflowing: [...document.querySelectorAll("td, th")].filter((c) => c.scrollWidth > c.clientWidth).map((c) => c.textContent),
  };
})()`;

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** What `WHAT_A_READER_SEES_OF_A_CLIMB` returns. */
interface ClimbView {
  zero: number;
  minEffect: number;
  points: {
    run: string;
    arm: string | null;
    value: number;
    y: number;
    winner: boolean;
    dropped: boolean;
    verdict: string;
    clipped: boolean;
    tip: string;
  }[];
  cuts: { end: string; value: number; y: number; tip: string }[];
  svg: Box;
  plot: Box;
  title: ({ text: string } & Box) | null;
  scrolling: string[];
  overflowing: string[];
}

describe("decideBrowser()", () => {
  const none = () => null;
  it("runs with the first browser found, OUTERLOOP_CHROMIUM first", () => {
    const found = (p: string) => (p === "/opt/c" || p === "/usr/bin/chromium" ? p : null);
    assert.deepEqual(decideBrowser({ OUTERLOOP_CHROMIUM: "/opt/c" }, found), { kind: "run", path: "/opt/c" });
    assert.deepEqual(decideBrowser({}, found), { kind: "run", path: "/usr/bin/chromium" });
  });

  it("skips without a browser, and fails when OUTERLOOP_REQUIRE_BROWSER=1", () => {
    assert.equal(decideBrowser({}, none).kind, "skip");
    const d = decideBrowser({ OUTERLOOP_REQUIRE_BROWSER: "1" }, none);
    assert.equal(d.kind, "fail");
    assert.match(d.kind === "fail" ? d.why : "", /scripts\/ensure-chromium/);
  });
});

/** What of Chromium's (`.org.chromium.Chromium.*`, `org.chromium.Chromium.*`) lies in `dir`. */
const chromiumFiles = (dir: string) => readdirSync(dir).filter((f) => /org\.chromium\./.test(f));

describe("chromiumTmp()", () => {
  it("is the browser dir's tmp/ while Chromium's singleton socket fits under it, else a short dir of its own", () => {
    const short = mkdtempSync("/tmp/ol-b-"); // a path of known length, wherever TMPDIR is
    const long = join(short, "d".repeat(70));
    try {
      assert.equal(chromiumTmp(short), join(short, "tmp"));
      const own = chromiumTmp(long);
      assert.ok(!own.startsWith(long), own);
      assert.ok(`${own}/org.chromium.Chromium.XXXXXX/SingletonSocket`.length <= 107, own);
      rmSync(own, { recursive: true });
    } finally {
      rmSync(short, { recursive: true, force: true });
    }
  });
});

describe("launchBrowser() leaves nothing in the suite's TMPDIR", () => {
  browserIt(
    "gives Chromium a TMPDIR of its own in the test's dir, and close() waits for it to quit",
    60_000,
    async (path) => {
      const dir = mkdtempSync(join(tmpdir(), "outerloop-browser-tmp-"));
      try {
        const before = chromiumFiles(tmpdir());
        const running = await launchBrowser(path, dir);
        const cdp = await Cdp.connect(running.wsUrl);
        try {
          // a zygote overwrites its environ with its process title: only the ones that still show theirs count
          const tmpdirs = groupMembers(running.pgid).flatMap((pid) =>
            readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").filter((e) => e.startsWith("TMPDIR="))
          );
          assert.ok(tmpdirs.length > 0, "the browser process shows its environment");
          assert.deepEqual(new Set(tmpdirs), new Set([`TMPDIR=${running.tmp}`]));
          const own = join(dir, "tmp");
          assert.ok(running.tmp === own || own.length > 60, `${running.tmp}: dir/tmp unless that is too long`);
          writeFileSync(join(dir, "page.html"), renderRunHtml(repeatRun()));
          await loadPage(cdp, pathToFileURL(join(dir, "page.html")).href, COUNT_POINTS);
        } finally {
          await running.close(() => cdp.send("Browser.close"));
          cdp.close();
        }
        assert.deepEqual(groupMembers(running.pgid), [], "no process of the browser is left");
        assert.ok(running.tmp.startsWith(dir + "/") || !existsSync(running.tmp), "a TMPDIR of its own is removed");
        assert.deepEqual(chromiumFiles(tmpdir()), before, "nothing of Chromium's in the suite's TMPDIR");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it("close() lets a browser that is slow to quit finish, in its own TMPDIR, before anything is removed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "outerloop-browser-slow-"));
    try {
      // a stand-in for Chromium: announces its DevTools port, and once asked to quit takes its time to clean up
      const fake = join(dir, "slow-chromium");
      writeFileSync(
        fake,
        "#!/bin/sh\necho 'DevTools listening on ws://127.0.0.1:9/devtools/browser/fake'\n" +
          'here=$(dirname "$0")/browser; while [ ! -e "$here/quit" ]; do sleep 0.05; done\n' +
          ': > "$TMPDIR/.org.chromium.Chromium.fake"; sleep 0.5; rm "$TMPDIR/.org.chromium.Chromium.fake"\n' +
          ': > "$here/quit-cleanly"\n',
      );
      chmodSync(fake, 0o755);
      const before = chromiumFiles(tmpdir());
      const running = await launchBrowser(fake, join(dir, "browser"));
      await running.close(async () => writeFileSync(join(dir, "browser", "quit"), ""));
      assert.ok(existsSync(join(dir, "browser", "quit-cleanly")), "it was left to finish, not killed mid-way");
      const left = existsSync(running.tmp) ? chromiumFiles(running.tmp) : []; // a TMPDIR of its own is removed
      assert.deepEqual(left, [], "its temp file went where it made it");
      assert.deepEqual(groupMembers(running.pgid), []);
      assert.deepEqual(chromiumFiles(tmpdir()), before);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the HTML report in a real browser", () => {
  let dir = "";
  let running: RunningBrowser | null = null;
  let cdp: Cdp | null = null;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "outerloop-report-browser-"));
    if (browser.kind !== "run") return;
    running = await launchBrowser(browser.path, join(dir, "browser"));
    cdp = await Cdp.connect(running.wsUrl);
  });

  after(async () => {
    // the browser quits and every process of it is gone before its dir (its TMPDIR too) is removed
    await running?.close(() => cdp!.send("Browser.close"));
    cdp?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Renders `html` to a file, loads it (`width` px wide), saves the screenshot and returns what the page showed. */
  async function show(name: string, html: string, expression = COUNT_POINTS, width?: number) {
    const file = join(dir, `${name}.html`);
    writeFileSync(file, html);
    const page = await loadPage(cdp as Cdp, pathToFileURL(file).href, expression, width);
    if (SHOTS !== null) {
      mkdirSync(SHOTS, { recursive: true });
      const shot = join(SHOTS, `${name}-${runtimeName()}.png`);
      writeFileSync(shot, page.png);
      process.stderr.write(`screenshot: ${shot}\n`);
    }
    assert.deepEqual(page.png.slice(0, 8), Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    assert.ok(page.png.length > 10_000, `a real picture, not a blank page (${page.png.length} bytes)`);
    return { ...page, url: pathToFileURL(file).href };
  }

  browserIt("renders a run report with every point, no console error and no request", 120_000, async () => {
    const page = await show("run", renderRunHtml(repeatRun()));
    assert.deepEqual(page.errors, []);
    assert.deepEqual(page.requests, [page.url]);
    assert.equal(page.value, 18); // 5 pairs + the mean, 6 baselines + 6 candidates
  });

  browserIt("renders a climb report with every point, no console error and no request", 120_000, async () => {
    const page = await show("climb", renderClimbHtml(climbFixture()));
    assert.deepEqual(page.errors, []);
    assert.deepEqual(page.requests, [page.url]);
    assert.equal(page.value, 17); // 7 baselines + 5 candidates, 5 differences
  });

  browserIt("renders the report the CLI makes of a real local climb: every point, no error", 180_000, async () => {
    const climb = await localClimb(dir);
    const file = join(dir, "cli-climb.html");
    const made = await cli(["report", climb, "--html", file]);
    assert.equal(made.code, 0, made.stderr);
    const page = await show("cli-climb", readFileSync(file, "utf8"));
    assert.deepEqual(page.errors, []);
    assert.deepEqual(page.requests, [page.url]);
    assert.equal(page.value, 9); // 3 runs: a baseline, a candidate and a difference each
  });

  browserIt(
    "shows a minimize run as its decision says: the mean beside its pairs, every number the decision's, every table fitting at 1200 px",
    120_000,
    async () => {
      const root = join(dir, "timing");
      const { dir: runDir, compute } = await seededRun(timingCase(), root);
      const file = join(dir, "timing-source.html");
      assert.equal((await cli(["report", runDir.path, "--html", file], { compute })).code, 0);
      const page = await show("timing-run", readFileSync(file, "utf8"), WHAT_A_READER_SEES, READING_WIDTH);
      assert.deepEqual(page.errors, []);
      const seen = page.value as ReaderView;
      const d = JSON.parse(readFileSync(runDir.decision, "utf8"));
      // the chart: a faster candidate's pairs, their mean and min_effect all left of zero (lower is better)
      assert.equal(seen.dots.length, 10);
      for (const x of seen.dots) assert.ok(x < seen.zero!, `a pair's dot at ${x}, zero at ${seen.zero}`);
      assert.ok(
        seen.mean! < seen.zero!,
        `the mean marker at ${seen.mean} lies left of zero at ${seen.zero}, with its pairs`,
      );
      const dotsMean = seen.dots.reduce((s, x) => s + x, 0) / seen.dots.length;
      assert.ok(
        Math.abs(seen.mean! - dotsMean) < 1.5,
        `the mean marker at ${seen.mean}, the dots' mean at ${dotsMean}`,
      );
      assert.ok(seen.minEffect! < seen.zero!, "min_effect on the improving side");
      // the tables fit
      assert.deepEqual(seen.overflowing, [], "no cell wider than its column");
      assert.deepEqual(seen.scrolling, [], "no table wider than its box");
      // the numbers: the decision's, to the digits printed
      const b = d.benchmark;
      const imp = seen.facts["improvement (positive = better)"] ?? "";
      const iv = intervalIn(imp)!;
      assert.ok(estimateAgrees([imp.split(",")[0]!, iv.lower, iv.upper], [b.mean, b.lower, b.upper]), imp);
      const diff = seen.facts["difference (candidate − baseline)"] ?? "";
      const div = intervalIn(diff)!;
      assert.ok(estimateAgrees([diff.split(",")[0]!, div.lower, div.upper], [-b.mean, -b.upper, -b.lower]), diff);
      const pairs = seen.rows.filter((r) => r[0]!.startsWith("pair "));
      pairs.forEach((r, i) => {
        const key = i === 0 ? "candidate" : `candidate#${i + 1}`;
        assert.ok(agrees(r[1]!, d.deltas[key]), `pair ${i + 1}: ${r[1]} for ${d.deltas[key]}`);
      });
      const meanRow = seen.rows.find((r) => r[0] === "mean of 10 pairs")!;
      assert.equal(meanRow[1], diff.split(",")[0], "the mean row is the mean difference");
    },
  );

  browserIt(
    "shows a stalled minimize run with samples: the set-aside dot hollow where its number says, the mean at the kept pairs', each whisker at its samples' min and max",
    120_000,
    async () => {
      const root = join(dir, "stall");
      const { dir: runDir, compute } = await seededRun(stalledTimingCase(), root);
      const file = join(dir, "stall-source.html");
      assert.equal((await cli(["report", runDir.path, "--html", file], { compute })).code, 0);
      const page = await show("stalled-run", readFileSync(file, "utf8"), WHAT_A_READER_SEES_OF_A_STALL, READING_WIDTH);
      assert.deepEqual(page.errors, []);
      const seen = page.value as StallView;
      const d = JSON.parse(readFileSync(runDir.decision, "utf8"));
      assert.deepEqual(d.benchmark.set_aside, [8]);
      // the difference chart's scale on screen, from a kept pair's dot
      const ref = seen.dots[0]!;
      const perUnit = (ref.x - seen.zero) / ref.value;
      const screenX = (v: number) => seen.zero + perUnit * v;
      assert.equal(seen.dots.length, 10);
      seen.dots.forEach((dot, i) => {
        assert.equal(dot.aside, i === 7, `pair ${i + 1} set aside exactly when the decision says`);
        assert.ok(
          Math.abs(dot.x - screenX(d.deltas[i === 0 ? "candidate" : `candidate#${i + 1}`])) < 1.5,
          `pair ${i + 1}`,
        );
      });
      const aside = seen.dots[7]!;
      assert.equal(aside.fill, "rgb(255, 255, 255)", "the set-aside dot is painted hollow");
      for (const dot of seen.dots.filter((x) => !x.aside)) assert.equal(dot.fill, "rgb(9, 105, 218)");
      assert.ok(aside.x > seen.zero + 100, `the stalled pair lies far right of zero (${aside.x} vs ${seen.zero})`);
      // the mean: the decision's estimate, the nine kept pairs' mean difference, not all ten's
      assert.equal(seen.meanValue, -d.benchmark.mean);
      const diffs = seen.dots.map((x) => x.value);
      const kept = diffs.filter((_, i) => i !== 7);
      const keptMean = kept.reduce((a, b) => a + b, 0) / kept.length;
      const allMean = diffs.reduce((a, b) => a + b, 0) / diffs.length;
      assert.ok(
        Math.abs(seen.mean - screenX(keptMean)) < 1.5,
        `the mean at ${seen.mean}, kept pairs' at ${screenX(keptMean)}`,
      );
      assert.ok(Math.abs(seen.mean - screenX(allMean)) > 20, "and visibly not at all ten pairs' mean");
      // the values chart: each whisker spans its samples, on the markers' own scale
      const at = (name: string) => seen.markers.find((m) => m.name === name)!.x;
      const v = d.values;
      const scale = (at("candidate#8") - at("baseline#8")) / (v["candidate#8"] - v["baseline#8"]);
      const valueX = (x: number) => at("baseline#8") + scale * (x - v["baseline#8"]);
      assert.equal(seen.whiskers.length, 20);
      for (const w of seen.whiskers) {
        const s = d.samples[w.name];
        assert.deepEqual([w.min, w.max], [s.min, s.max], w.name);
        // the box includes the caps' stroke: half of 1.2 px each side
        assert.ok(
          Math.abs(w.left + 0.6 - valueX(s.min)) < 1.5,
          `${w.name}: whisker starts at ${w.left}, min at ${valueX(s.min)}`,
        );
        assert.ok(
          Math.abs(w.right - 0.6 - valueX(s.max)) < 1.5,
          `${w.name}: whisker ends at ${w.right}, max at ${valueX(s.max)}`,
        );
        assert.ok(w.left <= at(w.name) && at(w.name) <= w.right, `${w.name}: its marker lies on its whisker`);
      }
      assert.ok(seen.legend.includes("set aside (outlying)"), seen.legend.join(" | "));
      assert.ok(seen.legend.includes("samples: min to max (the marker is the value)"), seen.legend.join(" | "));
      assert.deepEqual(seen.overflowing, [], "no cell wider than its column");
      assert.deepEqual(seen.scrolling, [], "no table wider than its box");
    },
  );

  browserIt(
    "shows a round at 1200 px as its decision says: the winner's marker and interval where the numbers are, the dropped candidates greyed, every table fitting",
    120_000,
    async () => {
      const root = join(dir, "round");
      // four candidates, a minimize benchmark with a sibling: the screen drops some, confirms the far-ahead one
      const c = roundCase(21, { k: 4, effects: [0.3, 4, -1, 0], direction: "minimize", repeats: 4, sibling: true });
      const { dir: runDir, compute } = await roundRun(c, root);
      const file = join(dir, "round-source.html");
      assert.equal((await cli(["report", runDir.path, "--html", file], { compute })).code, 0);
      const page = await show("round-run", readFileSync(file, "utf8"), WHAT_A_READER_SEES_OF_A_ROUND, READING_WIDTH);
      assert.deepEqual(page.errors, []);
      assert.deepEqual(page.requests, [page.url]);
      const seen = page.value as RoundView;
      const d = JSON.parse(readFileSync(runDir.decision, "utf8"));
      assert.equal(d.round.winner?.arm, 2, "the case is what it says: candidate-2 wins");
      assert.ok(d.round.candidates.some((x: { standing: string }) => x.standing === "dropped"), "and some are dropped");
      // the chart's scale on screen, from the marker farthest from zero (improvement: positive = better, rightward)
      const far = seen.points.reduce((a, b) => (Math.abs(b.x - seen.zero) > Math.abs(a.x - seen.zero) ? b : a));
      const perUnit = (far.x - seen.zero) / far.value;
      assert.ok(perUnit > 0, "higher improvements to the right");
      const screenX = (v: number) => seen.zero + perUnit * v;
      assert.ok(Math.abs(seen.minEffect - screenX(c.minEffect)) < 1.5, "min_effect where its number is");
      for (const cand of d.round.candidates) {
        const stages = [["screen", cand.screen], ["confirmation", cand.estimate]] as const;
        for (const [stage, e] of stages) {
          if (e === null) continue;
          const at = `${cand.arm} ${stage}`;
          const p = seen.points.find((x) => x.arm === cand.arm && x.stage === stage);
          assert.ok(p, `${at}: a marker`);
          assert.equal(p.value, e.mean, at);
          assert.ok(Math.abs(p.x - screenX(e.mean)) < 1.5, `${at}: at ${p.x}, its number says ${screenX(e.mean)}`);
          assert.equal(p.winner, cand.arm === 2 && stage === "confirmation", `${at}: the winner's mark`);
          assert.equal(p.dropped, cand.standing === "dropped", `${at}: dropped`);
          if (p.dropped) {
            assert.equal(p.fill, "rgb(140, 149, 159)", `${at}: greyed`);
            assert.ok(p.opacity < 1, `${at}: drawn faint (${p.opacity})`);
          }
          const iv = seen.intervals.find((x) => x.arm === cand.arm && x.stage === stage);
          if (e.n < 2) continue;
          assert.ok(iv, `${at}: an interval`);
          assert.ok(Math.abs(iv.left - screenX(e.lower)) < 1.5, `${at}: the interval starts at its lower end`);
          assert.ok(Math.abs(iv.right - screenX(e.upper)) < 1.5, `${at}: and ends at its upper end`);
          if (p.dropped) assert.equal(iv.stroke, "rgb(140, 149, 159)", `${at}: its interval greyed`);
        }
      }
      const w = seen.points.find((x) => x.winner)!;
      assert.equal(w.fill, "rgb(26, 127, 55)", "the winner is painted green");
      assert.ok(w.x > screenX(c.minEffect), "and lies on the accepting side of min_effect");
      assert.ok(seen.winnerLabel, "labelled winner");
      assert.ok(seen.legend.some((t) => t.includes("dropped by the screen (greyed)")), seen.legend.join(" | "));
      assert.ok(seen.legend.some((t) => t.includes("the round's winner")), seen.legend.join(" | "));
      assert.deepEqual(seen.overflowing, [], "no cell wider than its column");
      assert.deepEqual(seen.scrolling, [], "no table wider than its box");
    },
  );

  browserIt("fits every table of a climb of rounds beside runs of one at 1200 px", 120_000, async () => {
    const root = join(dir, "mixed");
    await seededRun(timingCase(), root, { tag: "r1", createdAt: "2026-01-02T03:04:05.000Z" });
    const c = roundCase(22, { k: 4, effects: [0.3, 4, -1, 0], direction: "minimize", repeats: 4, sibling: false });
    await roundRun(c, root, { tag: "r2", createdAt: "2026-01-02T04:04:05.000Z" });
    await roundRun(roundCase(23, { k: 3, effects: [-40, -40, -40], direction: "minimize" }), root, {
      tag: "r3",
      createdAt: "2026-01-02T05:04:05.000Z",
    });
    const file = join(dir, "mixed-source.html");
    assert.equal((await cli(["report", root, "--html", file])).code, 0);
    const page = await show("mixed-climb", readFileSync(file, "utf8"), WHAT_A_READER_SEES, READING_WIDTH);
    assert.deepEqual(page.errors, []);
    const seen = page.value as ReaderView;
    assert.deepEqual(seen.overflowing, [], "no cell wider than its column");
    assert.deepEqual(seen.scrolling, [], "no table wider than its box");
  });

  browserIt("fits every table of a climb at 1200 px, long names and failures included", 120_000, async () => {
    const page = await show(
      "climb-1200",
      renderClimbHtml([...climbFixture(), nastyRun()]),
      WHAT_A_READER_SEES,
      READING_WIDTH,
    );
    assert.deepEqual(page.errors, []);
    const seen = page.value as ReaderView;
    assert.deepEqual(seen.overflowing, [], "no cell wider than its column");
    assert.deepEqual(seen.scrolling, [], "no table wider than its box");
  });

  browserIt(
    "shows a climb of rounds readably at 1200 px: the axis scaled to the winners, accepted runs and min_effect, wide screen intervals cut at the edge with their true ends, the y label whole, tables at full height",
    120_000,
    async () => {
      const climb = timingClimb();
      const page = await show("timing-climb", renderClimbHtml(climb), WHAT_A_READER_SEES_OF_A_CLIMB, READING_WIDTH);
      assert.deepEqual(page.errors, []);
      const seen = page.value as ClimbView;
      // the scale on screen, from zero and the farthest winner (positive = better = up, so y falls)
      const winners = seen.points.filter((p) => p.winner);
      assert.equal(winners.length, 2, "the two rounds' winners");
      const far = winners.reduce((a, b) => (Math.abs(b.value) > Math.abs(a.value) ? b : a));
      const perUnit = (seen.zero - far.y) / far.value;
      assert.ok(perUnit > 0, "higher improvements higher up");
      const screenY = (v: number) => seen.zero - perUnit * v;
      assert.ok(Math.abs(seen.minEffect - screenY(0.02)) < 1.5, "min_effect where its number is");
      // what a person compares lies apart (on a ±15 axis the winners sat 0.4 px apart): winners +0.04 and +0.09, min_effect, zero
      const [w2, w3] = [winners.find((p) => p.run === "r2")!, winners.find((p) => p.run === "r3")!];
      assert.ok(w2.y - w3.y > 25, `the winners' markers ${w2.y - w3.y} px apart`);
      assert.ok(seen.zero - seen.minEffect > 10, `min_effect ${seen.zero - seen.minEffect} px above zero`);
      for (const p of seen.points.filter((x) => x.winner || x.verdict === "accept" || x.arm === null)) {
        assert.ok(!p.clipped, `${p.run}: not cut`);
        assert.ok(
          Math.abs(p.y - screenY(p.value)) < 1.5,
          `${p.run} ${p.arm}: at ${p.y}, its number says ${screenY(p.value)}`,
        );
      }
      // the dropped candidates' ±14 s screen intervals: cut at the plot's edge, each with its true end in its tooltip
      const dropped = climb.flatMap((r) => r.round?.arms.filter((a) => a.standing === "dropped") ?? []);
      assert.equal(seen.cuts.length, 2 * dropped.length, "both ends of every dropped candidate's interval are cut");
      for (const a of dropped) {
        const iv = a.screen!.estimate.interval!;
        for (const [end, value] of [["lower", iv.lower], ["upper", iv.upper]] as const) {
          const cut = seen.cuts.find((c) => c.end === end && c.value === value);
          assert.ok(cut, `${a.measure}: its ${end} end ${value} marked as cut`);
          assert.match(cut.tip, new RegExp(`${end} end is ${formatSigned(value).replace("+", "\\+")}$`));
          const edge = end === "upper" ? seen.plot.top : seen.plot.bottom;
          assert.ok(cut.y > seen.svg.top && cut.y < seen.svg.bottom, "the mark inside the chart");
          assert.ok(Math.abs(cut.y - edge) < 4, `${a.measure}: its ${end} mark at the plot's edge`);
        }
      }
      const clipped = seen.points.filter((p) => p.clipped);
      for (const p of clipped) assert.ok(p.dropped && /off the chart/.test(p.tip), `${p.run} ${p.arm}: ${p.tip}`);
      // the y-axis label: whole, inside the chart
      assert.ok(seen.title, "a y-axis title");
      assert.equal(seen.title.text, "parse_seconds: improvement (positive = better)");
      assert.ok(seen.title.left >= seen.svg.left && seen.title.right <= seen.svg.right, "the label fits across");
      assert.ok(seen.title.top >= seen.svg.top && seen.title.bottom <= seen.svg.bottom, "the label fits down");
      assert.deepEqual(seen.scrolling, [], "no table scrolls, either way: every one at its full height");
      assert.deepEqual(seen.overflowing, [], "no cell wider than its column");
    },
  );

  browserIt(
    "shows a biased calibration at 1200 px: its A/A pairs and interval where their numbers are, clear of zero, the warning, every table fitting",
    120_000,
    async () => {
      const run = calibrationRun(true);
      const c = run.calibration!;
      const expression = `(() => {
        const centre = (el) => { const b = el.getBoundingClientRect(); return b.left + b.width / 2; };
        const svg = document.querySelector('svg[id^="calibration-"]');
        const iv = svg.querySelector("line.interval").getBoundingClientRect();
        return {
          zero: centre(svg.querySelector("line.zero")),
          dots: [...svg.querySelectorAll('[data-point="pair"]')].map((e) => ({ x: centre(e), value: Number(e.dataset.value) })),
          mean: centre(svg.querySelector('[data-point="mean"]')),
          interval: [iv.left, iv.right],
          minEffect: svg.querySelectorAll(".min-effect, .accept-side").length,
          warning: document.querySelector(".bias")?.textContent ?? "",
          scrolling: [...document.querySelectorAll(".table-wrap")]
            .filter((w) => w.scrollWidth > w.clientWidth || w.scrollHeight > w.clientHeight).map((w) => w.querySelector("caption")?.textContent),
          overflowing: [...document.querySelectorAll("td, th")].filter((x) => x.scrollWidth > x.clientWidth).map((x) => x.textContent),
        };
      })()`;
      const page = await show("calibration", renderRunHtml(run), expression, READING_WIDTH);
      assert.deepEqual(page.errors, []);
      const seen = page.value as {
        zero: number;
        dots: { x: number; value: number }[];
        mean: number;
        interval: [number, number];
        minEffect: number;
        warning: string;
        scrolling: string[];
        overflowing: string[];
      };
      const perUnit = (seen.dots[0]!.x - seen.zero) / seen.dots[0]!.value;
      const screenX = (v: number) => seen.zero + perUnit * v;
      assert.equal(seen.dots.length, 6);
      for (const d of seen.dots) assert.ok(Math.abs(d.x - screenX(d.value)) < 1.5, `a pair at ${d.x}`);
      assert.ok(Math.abs(seen.mean - screenX(c.mean)) < 1.5, "the mean where its number is");
      assert.ok(Math.abs(seen.interval[0] - screenX(c.lower)) < 1.5, "the A/A interval from its lower end");
      assert.ok(Math.abs(seen.interval[1] - screenX(c.upper)) < 1.5, "to its upper end");
      assert.ok(seen.interval[0] > seen.zero + 20, "clear of zero, as a biased calibration's is");
      assert.equal(seen.minEffect, 0, "no min_effect drawn");
      assert.match(seen.warning, /excludes 0/);
      assert.deepEqual(seen.scrolling, [], "no table scrolls");
      assert.deepEqual(seen.overflowing, [], "no cell wider than its column");
    },
  );

  browserIt(
    "shows crashed candidates at 1200 px: the cause and the log's end on the page, greyed in the charts, every table fitting",
    120_000,
    async () => {
      const expression = `(() => ({
        crashed: [...document.querySelectorAll("p.crashed")].map((p) => p.textContent),
        logs: [...document.querySelectorAll("pre.log")].map((p) => p.textContent),
        greyed: [...document.querySelectorAll('g.arm [data-point="improvement"]')]
          .filter((e) => e.closest("g.arm").getAttribute("opacity") !== null && e.dataset.arm === "3")
          .map((e) => getComputedStyle(e).stroke),
        scrolling: [...document.querySelectorAll(".table-wrap")]
          .filter((w) => w.scrollWidth > w.clientWidth || w.scrollHeight > w.clientHeight).map((w) => w.querySelector("caption")?.textContent),
        overflowing: [...document.querySelectorAll("td, th")].filter((x) => x.scrollWidth > x.clientWidth).map((x) => x.textContent),
      }))()`;
      type Seen = { crashed: string[]; logs: string[]; greyed: string[]; scrolling: string[]; overflowing: string[] };
      const round = await show("crashed-round", renderRunHtml(crashedRound()), expression, READING_WIDTH);
      assert.deepEqual(round.errors, []);
      const seen = round.value as Seen;
      assert.deepEqual(seen.crashed, [
        "Crashed: candidate-3 (c3) crashed: eval exited with code 1 (measure candidate-3#2) in job 4242_1.",
      ]);
      assert.match(seen.logs[0] ?? "", /ValueError: bad \| `input`$/);
      assert.deepEqual(seen.greyed, ["rgb(140, 149, 159)"], "the crashed candidate's marker greyed");
      assert.deepEqual(seen.scrolling, []);
      assert.deepEqual(seen.overflowing, []);
      const climb = await show(
        "crashed-climb",
        renderClimbHtml([repeatRun(), crashedRun({ tag: "r2" }), crashedRound()]),
        expression,
        READING_WIDTH,
      );
      assert.deepEqual(climb.errors, []);
      const c = climb.value as Seen;
      assert.deepEqual(c.greyed, ["rgb(140, 149, 159)"], "greyed in the climb's chart too");
      assert.deepEqual(c.scrolling, []);
      assert.deepEqual(c.overflowing, []);
    },
  );

  browserIt(
    "shows a climb with crashes, a round, a smoke crash and two bases at 1200 and 1600 px: every crash marked and in the legend, the min_effect label on no mark, no word broken, a note on the bases",
    120_000,
    async () => {
      const [a, b, c] = ["a", "b", "c"].map((x) => x.repeat(40)) as [string, string, string];
      const near = (d: number) => ({ values: { baseline: 10, candidate: 10 + d }, differences: { candidate: d } });
      const climb = [
        makeRun({ tag: "r1", baseSha: a, candidateSha: b }),
        crashedRun({ tag: "r2", baseSha: b, values: { baseline: 10 }, pairs: [] }),
        { ...crashedRound(false), tag: "round 1", baseSha: b, candidateSha: c },
        crashedRun({ tag: "smoke-crash", baseSha: c, values: {}, pairs: [] }),
        // on the first base again, their improvements just above min_effect, where its label first goes
        makeRun({ tag: "r5", baseSha: a, candidateSha: b, verdict: "inconclusive", ...near(0.62) }),
        makeRun({ tag: "r6", baseSha: a, candidateSha: b, verdict: "inconclusive", ...near(0.6) }),
      ];
      const expression = `(() => {
        const box = (e) => { const r = e.getBoundingClientRect(); return { l: r.left, r: r.right, t: r.top, b: r.bottom }; };
        const inside = (i, o) => i.l >= o.l - 1 && i.r <= o.r + 1 && i.t >= o.t - 1 && i.b <= o.b + 1;
        const meets = (p, q) => p.l < q.r && q.l < p.r && p.t < q.b && q.t < p.b;
        return {
          crashes: [...document.querySelectorAll('svg [data-point="crash"]')].map((e) => ({
            run: e.dataset.run, arm: e.dataset.arm ?? null, shown: inside(box(e), box(e.closest("svg"))) && box(e).r > box(e).l,
          })),
          legends: [...document.querySelectorAll("figure")].map((f) => f.querySelector(".legend")?.textContent ?? ""),
          onMarks: [...document.querySelectorAll("text.min-effect-label")].flatMap((t) =>
            [...t.closest("svg").querySelectorAll("[data-point]")].filter((m) => meets(box(t), box(m))).map((m) => m.dataset.run)),
          // a word held whole that still spans two lines, or a one-line cell on two
          broken: [...document.querySelectorAll(".nobr, td.nowrap")].filter((e) => {
            const r = document.createRange(); r.selectNodeContents(e);
            return new Set([...r.getClientRects()].map((q) => Math.round(q.top))).size > 1;
          }).map((e) => e.textContent),
          bases: document.querySelector("p.note.bases")?.textContent ?? "",
        };
      })()`;
      type Seen = {
        crashes: { run: string; arm: string | null; shown: boolean }[];
        legends: string[];
        onMarks: string[];
        broken: string[];
        bases: string;
      };
      for (const width of [READING_WIDTH, 1600]) {
        const page = await show(`crashes-bases-${width}`, renderClimbHtml(climb), expression, width);
        assert.deepEqual(page.errors, []);
        const seen = page.value as Seen;
        const crash = (run: string, arm: string | null = null) => ({ run, arm, shown: true });
        assert.deepEqual(seen.crashes, [
          crash("r2"),
          crash("smoke-crash"),
          crash("r2"),
          crash("round 1", "3"),
          crash("smoke-crash"),
        ], `${width} px: each crash marked in both charts, inside them`);
        assert.ok(
          seen.legends.every((l) => l.includes("crashed, no value: on the bottom edge")),
          seen.legends.join(" | "),
        );
        assert.deepEqual(seen.onMarks, [], `${width} px: the min_effect label sits on no mark`);
        assert.deepEqual(seen.broken, [], `${width} px: no word broken`);
        assert.match(seen.bases, /^Not one descent: 2 runs .*run 5 \(r5\) on aaaaaaaaaa, not cccccccccc; run 6 /);
      }
    },
  );

  browserIt("renders hostile names as text: no element, script or error comes out of them", 120_000, async () => {
    const page = await show("escaped", renderRunHtml(nastyRun()));
    assert.deepEqual(page.errors, []);
    assert.equal(page.value, 5);
  });

  browserIt("notices a console error, an exception and a request (the check itself works)", 120_000, async () => {
    const bad = "<!DOCTYPE html><title>bad</title><p data-point>x</p><script>console.error('boom');" +
      "throw new Error('kaput')</script><img src='missing.png' alt=''>";
    const file = join(dir, "bad.html");
    writeFileSync(file, bad);
    const page = await loadPage(cdp as Cdp, pathToFileURL(file).href, COUNT_POINTS);
    assert.equal(page.value, 1);
    assert.ok(page.errors.some((e) => e.includes("console.error: boom")), page.errors.join("\n"));
    assert.ok(page.errors.some((e) => e.includes("kaput")), page.errors.join("\n"));
    assert.ok(page.requests.some((u) => u.endsWith("missing.png")), page.requests.join("\n"));
  });
});
