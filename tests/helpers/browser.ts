/**
 * A real headless Chromium for the report's browser test, driven over the
 * Chrome DevTools Protocol (a WebSocket, a global in Deno and Bun alike).
 *
 * Gated like the live Slurm suite: without a browser the test is skipped
 * with ONE loud line on stderr — unless `OUTERLOOP_REQUIRE_BROWSER=1` (CI),
 * where a missing browser fails it. `scripts/ensure-chromium` installs one.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
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

/**
 * The flags the test runs Chromium with: headless, no sandbox (Debian 12's
 * Chromium refuses to start as root with one), and no background traffic.
 */
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
  /** Its TMPDIR: `dir/tmp`, or a short dir of its own when that path is too long for Chromium's socket. */
  readonly tmp: string;
  /**
   * Asks the browser to quit (`ask`, e.g. CDP `Browser.close`) and waits for
   * every process of its group to exit on its own, up to `graceMs`: killed in
   * the middle of its shutdown, Chromium leaves its temp files behind. Only
   * then is what is left killed. Resolves once no process of the group is
   * left; after that nothing can write into the browser's directory.
   */
  close(ask: () => Promise<unknown>, graceMs?: number): Promise<void>;
  /** Kills the whole group at once and waits until no process of it is left (a throw after 10 s). */
  kill(): Promise<void>;
}

/** The pids of the live (not zombie) processes in group `pgid`, from /proc. */
export function groupMembers(pgid: number): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^[0-9]+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // gone meanwhile
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so read after the last ")"
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z") out.push(Number(name));
  }
  return out;
}

/** Waits until no process of group `pgid` is left; false when `ms` pass first. */
async function groupGone(pgid: number, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; groupMembers(pgid).length > 0;) {
    if (Date.now() > deadline) return false;
    await new Promise((done) => setTimeout(done, 50));
  }
  return true;
}

/**
 * Chromium's TMPDIR: `dir/tmp`, unless that path is too long for the
 * singleton socket Chromium makes under it (`org.chromium.Chromium.XXXXXX/
 * SingletonSocket`, within a socket path's 107 bytes): a TMPDIR that is deep
 * or long (a login node's, a job's) then gets a short dir of its own under
 * /tmp, which the browser's `kill` removes.
 */
export function chromiumTmp(dir: string): string {
  const tmp = join(dir, "tmp");
  if (tmp.length > SOCKET_PATH_MAX - "/org.chromium.Chromium.XXXXXX/SingletonSocket".length) {
    return mkdtempSync("/tmp/ol-chromium-");
  }
  mkdirSync(tmp, { recursive: true });
  return tmp;
}

/** The longest path a Unix socket can be bound at (sun_path's 108 bytes, less the NUL). */
const SOCKET_PATH_MAX = 107;

/**
 * Starts Chromium in a new session of its own, in `dir` (a directory the test
 * owns and removes): its profile in `dir/profile`, its output in
 * `dir/chromium.log`, and its TMPDIR `dir/tmp` — Chromium makes temp files
 * there (`.org.chromium.Chromium.*`), which a kill or a crash leaves behind,
 * and they must not land in the suite's TMPDIR. Returns once it prints
 * `DevTools listening on ws://…`. `spawn` runs a shell that puts the browser
 * in the background and exits at once, so the group id is the shell's pid.
 */
export async function launchBrowser(path: string, dir: string): Promise<RunningBrowser> {
  mkdirSync(dir, { recursive: true });
  const tmp = chromiumTmp(dir);
  const logFile = join(dir, "chromium.log");
  const argv = [path, ...CHROMIUM_FLAGS, `--user-data-dir=${join(dir, "profile")}`, "about:blank"];
  const script = 'log=$1; shift; "$@" </dev/null >"$log" 2>&1 & echo $$';
  const env = { ...process.env as Record<string, string>, TMPDIR: tmp };
  const r = await spawn({ argv: ["/bin/sh", "-c", script, "sh", logFile, ...argv], env, timeoutMs: 10_000 });
  const pgid = Number(r.stdout.trim());
  if (r.exitCode !== 0 || !Number.isInteger(pgid) || pgid <= 1) {
    throw new Error(`Cannot start ${path}: exit ${r.exitCode}, stdout ${JSON.stringify(r.stdout)}, ${r.stderr}`);
  }
  // a test process that dies early still takes the browser with it; removed once the group is gone
  const ownTmp = !tmp.startsWith(dir + "/");
  const onExit = () => {
    signalGroup();
    if (ownTmp) rmSync(tmp, { recursive: true, force: true });
  };
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
    const gone = await groupGone(pgid, 10_000);
    process.removeListener("exit", onExit);
    if (ownTmp) rmSync(tmp, { recursive: true, force: true });
    if (!gone) throw new Error(`Chromium's processes ${groupMembers(pgid).join(", ")} survived SIGKILL for 10 s`);
  };
  const close = async (ask: () => Promise<unknown>, graceMs = 15_000) => {
    await ask().catch(() => {}); // a browser that is gone already cannot answer
    if (!(await groupGone(pgid, graceMs))) process.stderr.write(`Chromium did not quit within ${graceMs} ms: killed\n`);
    await kill();
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
    if (m?.[1]) return { wsUrl: m[1], pgid, tmp, close, kill };
    if (groupMembers(pgid).length === 0 || Date.now() - started > 20_000) {
      await kill();
      throw new Error(`Chromium did not open its DevTools port; its output:\n${log.slice(-2000)}`);
    }
    await new Promise((done) => setTimeout(done, 50));
  }
}
