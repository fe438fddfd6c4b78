/** What a test's `outerloop measure` names: the backend, the commits, the contract and the run dir. */
export interface MeasureArgs {
  readonly compute: "local" | "slurm";
  readonly repo: string;
  readonly base: string;
  readonly candidate: string;
  readonly contract: string;
  readonly runDir: string;
  /** `--account` and `--partition` on the live testbed: `acct_a` / `cpu`, the testbed's. */
  readonly lane?: { readonly account: string; readonly partition: string };
}

/** The testbed's lane: the account its script creates and its default partition. */
export const TESTBED_LANE = { account: "acct_a", partition: "cpu" } as const;

/** The arguments of `outerloop measure` for `m`, then `more` (`--json`, `--wait`, `--seed N` …). */
export function measureArgv(m: MeasureArgs, ...more: string[]): string[] {
  return [
    "measure",
    "--compute",
    m.compute,
    ...(m.lane ? ["--account", m.lane.account, "--partition", m.lane.partition] : []),
    "--repo",
    m.repo,
    "--base",
    m.base,
    "--candidate",
    m.candidate,
    "--contract",
    m.contract,
    "--run-dir",
    m.runDir,
    ...more,
  ];
}

/** What a live test's `outerloop measure` names: the repo, its [base, candidate, …] commits, the contract, the run dir. */
export interface TestbedMeasure {
  readonly repo: string;
  readonly shas: readonly string[];
  readonly contract: string;
  readonly runDir: string;
}

/**
 * `outerloop measure` of `shas[0]` against every other sha (one: a run; more: a round) on the live
 * testbed's lane, then `more`.
 */
export function testbedMeasureArgv(m: TestbedMeasure, ...more: string[]): string[] {
  const [base, ...candidates] = m.shas;
  if (base === undefined || candidates.length === 0) throw new TypeError("testbedMeasureArgv needs two shas or more");
  const lane = ["--account", TESTBED_LANE.account, "--partition", TESTBED_LANE.partition];
  return [
    "measure",
    "--compute",
    "slurm",
    ...lane,
    "--repo",
    m.repo,
    "--base",
    base,
    ...candidates.flatMap((sha) => ["--candidate", sha]),
    "--contract",
    m.contract,
    "--run-dir",
    m.runDir,
    ...more,
  ];
}
