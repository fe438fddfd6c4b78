/**
 * A real headless Chromium for the report's browser test, driven over the
 * Chrome DevTools Protocol (a WebSocket, a global in Deno and Bun alike).
 *
 * Gated like the live Slurm suite: without a browser the test is skipped
 * with ONE loud line on stderr — unless `OUTERLOOP_REQUIRE_BROWSER=1` (CI),
 * where a missing browser fails it. `scripts/ensure-chromium` installs one.
 */
import { readFileSync } from "node:fs";
import { it } from "node:test";
import { spawn } from "../../src/runtime/spawn.ts";
import { which } from "../../src/runtime/which.ts";

/** The command that makes the browser test run, printed whenever it is skipped. */
export const HOW_TO_RUN = "scripts/ensure-chromium && deno task test";

/** What the browser test does in this environment. */
export type BrowserDecision =
  | { readonly kind: "run"; readonly path: string }
  | { readonly kind: "skip"; readonly why: string }
  | { readonly kind: "fail"; readonly why: string };

/** Finds the browser as `scripts/ensure-chromium` does; pure given `find`, so the rule is testable. */
export function decideBrowser(
  env: Readonly<Record<string, string | undefined>>,
  find: (program: string) => string | null = (p) => which(p, env["PATH"] ?? "", "/"),
): BrowserDecision {
  const names = [env["OUTERLOOP_CHROMIUM"], "/usr/bin/chromium-headless-shell", "/usr/bin/chromium"]
    .concat(["chromium-headless-shell", "chromium"]).filter((n): n is string => n !== undefined && n !== "");
  for (const name of names) {
    const path = find(name);
    if (path !== null) return { kind: "run", path };
  }
  const why = `no Chromium found (looked for ${names.join(", ")})`;
  return env["OUTERLOOP_REQUIRE_BROWSER"] === "1"
    ? { kind: "fail", why: `OUTERLOOP_REQUIRE_BROWSER=1 but ${why}: run ${HOW_TO_RUN}` }
    : { kind: "skip", why };
}

/** This process's decision. */
export const browser: BrowserDecision = decideBrowser(process.env);

if (browser.kind === "skip" && process.env["OUTERLOOP_BROWSER_SKIP_NOTED"] !== "1") {
  process.env["OUTERLOOP_BROWSER_SKIP_NOTED"] = "1";
  process.stderr.write(`*** report browser test SKIPPED: ${browser.why}. Run it with: ${HOW_TO_RUN}\n`);
}

/** A browser test: runs with the browser's path, is skipped without one, fails when one is required but missing. */
export function browserIt(name: string, timeoutMs: number, fn: (path: string) => Promise<void>): void {
  const b = browser;
  if (b.kind === "run") it(name, { timeout: timeoutMs }, () => fn(b.path));
  else if (b.kind === "skip") it(name, { skip: b.why, timeout: timeoutMs }, () => {});
  else {
    it(name, { timeout: timeoutMs }, () => {
      throw new Error(b.why);
    });
  }
}

/** The flags the brief's measurements call for: headless, no sandbox as root, and no background traffic. */
export const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--hide-scrollbars",
  "--remote-debugging-port=0",
];

/** A running browser: its DevTools WebSocket URL and its own process group. */
export interface RunningBrowser {
  readonly wsUrl: string;
  /** The process group every Chromium process is in (the group of the shell that started it). */
  readonly pgid: number;
  /** Kills the whole group and waits (up to 5 s) until no process of it is left. */
  kill(): Promise<void>;
}

/**
 * Starts Chromium in a new session of its own, with `userDataDir` as its
 * profile and its output in `logFile`, and returns once it prints
 * `DevTools listening on ws://…`. `spawn` runs a shell that puts the browser
 * in the background and exits at once, so the group id is the shell's pid.
 */
export async function launchBrowser(path: string, userDataDir: string, logFile: string): Promise<RunningBrowser> {
  const argv = [path, ...CHROMIUM_FLAGS, `--user-data-dir=${userDataDir}`, "about:blank"];
  const script = 'log=$1; shift; "$@" </dev/null >"$log" 2>&1 & echo $$';
  const r = await spawn({ argv: ["/bin/sh", "-c", script, "sh", logFile, ...argv], timeoutMs: 10_000 });
  const pgid = Number(r.stdout.trim());
  if (r.exitCode !== 0 || !Number.isInteger(pgid) || pgid <= 1) {
    throw new Error(`Cannot start ${path}: exit ${r.exitCode}, stdout ${JSON.stringify(r.stdout)}, ${r.stderr}`);
  }
  const groupAlive = () => {
    try {
      process.kill(-pgid, 0);
      return true;
    } catch {
      return false;
    }
  };
  // a test process that dies early still takes the browser with it; removed once the group is killed
  const onExit = () => signalGroup();
  const signalGroup = () => {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // already gone
    }
  };
  process.once("exit", onExit);
  const kill = async () => {
    signalGroup();
    for (const deadline = Date.now() + 5000; groupAlive() && Date.now() < deadline;) {
      await new Promise((done) => setTimeout(done, 50));
    }
    process.removeListener("exit", onExit);
  };
  const started = Date.now();
  for (;;) {
    let log = "";
    try {
      log = readFileSync(logFile, "utf8");
    } catch {
      // not created yet
    }
    const m = /DevTools listening on (ws:\/\/\S+)/.exec(log);
    if (m?.[1]) return { wsUrl: m[1], pgid, kill };
    if (!groupAlive() || Date.now() - started > 20_000) {
      await kill();
      throw new Error(`Chromium did not open its DevTools port; its output:\n${log.slice(-2000)}`);
    }
    await new Promise((done) => setTimeout(done, 50));
  }
}
