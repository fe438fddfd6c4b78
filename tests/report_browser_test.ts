import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, describe, it } from "node:test";
import { renderClimbHtml } from "../src/report/html_climb.ts";
import { renderRunHtml } from "../src/report/html_run.ts";
import { runtimeName } from "../src/runtime/detect.ts";
import { browser, browserIt, decideBrowser, launchBrowser, type RunningBrowser } from "./helpers/browser.ts";
import { Cdp, loadPage } from "./helpers/cdp.ts";
import { climbFixture, nastyRun, repeatRun } from "./helpers/report_fixtures.ts";

/**
 * Where screenshots go: kept after the test, unlike the rest of its temp dir — in `OUTERLOOP_ARTIFACTS`
 * (CI keeps that dir as its artifacts; scripts/test.sh sets it outside the suite's own temp dir).
 */
const SHOTS = join(process.env["OUTERLOOP_ARTIFACTS"] || join(tmpdir(), "outerloop-artifacts"), "report-shots");
const COUNT_POINTS = "document.querySelectorAll('[data-point]').length";

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

describe("the HTML report in a real browser", () => {
  let dir = "";
  let running: RunningBrowser | null = null;
  let cdp: Cdp | null = null;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), "outerloop-report-browser-"));
    if (browser.kind !== "run") return;
    running = await launchBrowser(browser.path, join(dir, "profile"), join(dir, "chromium.log"));
    cdp = await Cdp.connect(running.wsUrl);
  });

  after(async () => {
    await cdp?.send("Browser.close").catch(() => {});
    cdp?.close();
    await running?.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Renders `html` to a file, loads it, saves the screenshot and returns what the page showed. */
  async function show(name: string, html: string) {
    const file = join(dir, `${name}.html`);
    writeFileSync(file, html);
    const page = await loadPage(cdp as Cdp, pathToFileURL(file).href, COUNT_POINTS);
    mkdirSync(SHOTS, { recursive: true });
    const shot = join(SHOTS, `${name}-${runtimeName()}-${process.pid}.png`);
    writeFileSync(shot, page.png);
    process.stderr.write(`screenshot: ${shot}\n`);
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
