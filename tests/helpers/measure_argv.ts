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

/** What a live test's `outerloop measure` names: the repo, its [base, candidate] commits, the contract, the run dir. */
export interface TestbedMeasure {
  readonly repo: string;
  readonly shas: readonly string[];
  readonly contract: string;
  readonly runDir: string;
}

/** `outerloop measure` of `shas[0]` -> `shas[1]` on the live testbed's lane, then `more`. */
export function testbedMeasureArgv(m: TestbedMeasure, ...more: string[]): string[] {
  const [base, candidate] = m.shas;
  if (base === undefined || candidate === undefined) throw new TypeError("testbedMeasureArgv needs two shas");
  const { repo, contract, runDir } = m;
  return measureArgv({ compute: "slurm", lane: TESTBED_LANE, repo, base, candidate, contract, runDir }, ...more);
}
