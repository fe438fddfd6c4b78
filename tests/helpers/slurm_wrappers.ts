/**
 * Wrapper scripts around the real sbatch, squeue, sacct and scancel, put
 * first on PATH by the live fault tests. Each call is numbered and logged;
 * what it does is decided by a plan (the next actions queued for that
 * command) or, in random mode, by a seeded PRNG over (seed, call number) —
 * so a run's faults depend only on the seed and the order of calls. The
 * wrappers know their state dir by its path, written into them: outerloop
 * passes scheduler commands only a filtered environment.
 *
 * Actions:
 * - pass: run the real command;
 * - stall: wait 1–4 s, then run it;
 * - slow-before: wait 6 s, then run it (a slow controller);
 * - slow-after: run it, then wait 6 s before answering (a stale answer);
 * - fail: fail without running it (sbatch: "Socket timed out", queries alike);
 * - fail-after (sbatch): run it — the job IS submitted — then fail the same way;
 * - empty-after (sbatch): run it, answer nothing, exit 0;
 * - empty (queries): answer nothing, exit 0.
 */
import { appendFileSync, chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./temp.ts";

/** The scheduler commands wrapped. */
export const WRAPPED = ["sbatch", "squeue", "sacct", "scancel"] as const;
export type Wrapped = (typeof WRAPPED)[number];

/** One logged call. */
export interface WrappedCall {
  readonly n: number;
  readonly cmd: string;
  readonly action: string;
  /** sbatch's --job-name, or "-". */
  readonly name: string;
  /** What happened: `rc=N`, or `submitted ID` when the real sbatch made a job. */
  readonly outcome: string;
}

/** Percent chances of each fault per call of a command, in random mode. */
export type FaultOdds = Partial<Record<Wrapped, Record<string, number>>>;

const TEMPLATE = `#!/bin/sh
# outerloop live-test wrapper around the real @CMD@ (tests/helpers/slurm_wrappers.ts)
st='@STATE@'
cmd='@CMD@'
real='@REAL@'
: > "$st/inflight/$$"
trap 'rm -f "$st/inflight/$$"' EXIT
trap 'exit 143' TERM INT HUP
exec 9>>"$st/lock"
flock 9
n=$(( $(cat "$st/n" 2>/dev/null || echo 0) + 1 ))
echo "$n" > "$st/n"
action=
if [ -s "$st/plan.$cmd" ]; then
  action=$(head -n 1 "$st/plan.$cmd")
  tail -n +2 "$st/plan.$cmd" > "$st/plan.$cmd.tmp" && mv "$st/plan.$cmd.tmp" "$st/plan.$cmd"
fi
flock -u 9
r=$(printf '%s:%s' "$(cat "$st/seed" 2>/dev/null)" "$n" | cksum | cut -d' ' -f1)
if [ -z "$action" ] && [ "$(cat "$st/mode" 2>/dev/null)" = random ] && [ -s "$st/odds.$cmd" ]; then
  pick=$((r % 100)) acc=0
  while read -r a p; do
    acc=$((acc + p))
    if [ "$pick" -lt "$acc" ]; then action=$a; break; fi
  done < "$st/odds.$cmd"
fi
[ -n "$action" ] || action=pass
if [ -e "$st/dump-env" ]; then
  env > "$st/env/$cmd.$n.self"
  tr '\\000' '\\n' < "/proc/$PPID/environ" > "$st/env/$cmd.$n.parent" 2>/dev/null
fi
name=-
for a in "$@"; do case $a in --job-name=*) name=\${a#--job-name=} ;; esac; done
log() { printf '%s %s %s %s %s\\n' "$n" "$cmd" "$action" "$name" "$1" >> "$st/calls.log"; }
lost() { echo "$cmd: error: Batch job submission failed: Socket timed out on send/recv operation" >&2; }
case $action in
  fail)
    log "rc=1"
    if [ "$cmd" = sbatch ]; then lost; else echo "slurm_load_jobs error: Socket timed out on send/recv operation" >&2; fi
    exit 1
    ;;
  empty) log "rc=0 empty"; exit 0 ;;
  fail-after | empty-after)
    out=$("$real" "$@" 2>/dev/null)
    rc=$?
    if [ "$rc" = 0 ]; then log "submitted $out"; else log "rc=$rc"; fi
    if [ "$action" = fail-after ]; then lost; exit 1; fi
    exit 0
    ;;
esac
[ "$action" = stall ] && sleep $((r % 4 + 1))
[ "$action" = slow-before ] && sleep 6
out=$("$real" "$@" 2>"$st/err.$$")
rc=$?
[ "$action" = slow-after ] && sleep 6
cat "$st/err.$$" >&2
rm -f "$st/err.$$"
if [ "$cmd" = sbatch ] && [ "$rc" = 0 ]; then log "submitted $out"; else log "rc=$rc"; fi
[ -z "$out" ] || printf '%s\\n' "$out"
exit "$rc"
`;

/** The wrappers of one test: where they are, how to drive them, what they saw. */
export class SlurmWrappers {
  /** Put this first on PATH. */
  readonly dir: string;
  /** Their state: counter, plans, odds, log, env dumps. */
  readonly state: string;

  constructor(opts: { readonly seed?: number; readonly dumpEnv?: boolean } = {}) {
    const root = tempDir("slurm-wrappers-");
    this.dir = join(root, "bin");
    this.state = join(root, "state");
    mkdirSync(this.dir);
    mkdirSync(join(this.state, "env"), { recursive: true });
    mkdirSync(join(this.state, "inflight"));
    writeFileSync(join(this.state, "seed"), String(opts.seed ?? 1));
    writeFileSync(join(this.state, "calls.log"), "");
    if (opts.dumpEnv) writeFileSync(join(this.state, "dump-env"), "");
    for (const cmd of WRAPPED) {
      const file = join(this.dir, cmd);
      const text = TEMPLATE.replaceAll("@CMD@", cmd).replaceAll("@STATE@", this.state).replaceAll(
        "@REAL@",
        `/usr/bin/${cmd}`,
      );
      writeFileSync(file, text);
      chmodSync(file, 0o755);
    }
  }

  /** Queues actions for the next calls of `cmd` (before any random fault). */
  plan(cmd: Wrapped, ...actions: string[]): void {
    appendFileSync(join(this.state, `plan.${cmd}`), actions.map((a) => a + "\n").join(""));
  }

  /** Random faults on (with these odds, in percent per call) or off. */
  random(odds: FaultOdds | null, seed?: number): void {
    if (seed !== undefined) writeFileSync(join(this.state, "seed"), String(seed));
    for (const cmd of WRAPPED) {
      const lines = Object.entries(odds?.[cmd] ?? {}).map(([a, p]) => `${a} ${p}\n`).join("");
      writeFileSync(join(this.state, `odds.${cmd}`), lines);
    }
    writeFileSync(join(this.state, "mode"), odds ? "random" : "off");
  }

  /** Every call so far, in order. */
  calls(): WrappedCall[] {
    return readFileSync(join(this.state, "calls.log"), "utf8").split("\n").filter(Boolean).map((line) => {
      const [n = "", cmd = "", action = "", name = "", ...rest] = line.split(" ");
      return { n: Number(n), cmd, action, name, outcome: rest.join(" ") };
    }).sort((a, b) => a.n - b.n);
  }

  /** Job name → the ids the real sbatch made for it. */
  submissions(): Map<string, string[]> {
    const out = new Map<string, string[]>();
    for (const c of this.calls()) {
      const m = /^submitted (\d+)/.exec(c.outcome);
      if (c.cmd === "sbatch" && m) out.set(c.name, [...(out.get(c.name) ?? []), m[1]!]);
    }
    return out;
  }

  /** The pids of wrapped calls still running (a killed outerloop's sbatch lives on). */
  inFlight(): number[] {
    return readdirSync(join(this.state, "inflight")).map(Number).filter((pid) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    });
  }

  /** The environments the wrappers saw: their own (`self`) and their caller's (`parent`), by file name. */
  environments(): Map<string, string> {
    const dir = join(this.state, "env");
    const out = new Map<string, string>();
    if (!existsSync(dir)) return out;
    for (const f of readdirSync(dir)) out.set(f, readFileSync(join(dir, f), "utf8"));
    return out;
  }
}
