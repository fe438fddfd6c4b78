import type { JobSpec } from "../../src/compute/job_spec.ts";
import { SubmitLimitError } from "../../src/compute/errors.ts";
import type { Measure } from "../../src/measure/measure.ts";
import { FakeCompute } from "./fake_compute.ts";
import { testMeasurer } from "./run_fixture.ts";
import { tempDir } from "./temp.ts";

/** A measurer with arrays on (tests of dispatch, submit limits, recovery and retries), and its looks. */
const SHA_A = "a".repeat(40);
const SHA_B = "b".repeat(40);
export const measure = (name: string, gpus = 0): Measure => ({
  name,
  treeSha: name.startsWith("base") ? SHA_A : SHA_B,
  command: "python bench.py",
  metric: "score",
  extraEnv: [["SEED", String(name.length)]],
  gpus,
});
/** A look of `pairs` pairs: baseline, candidate, baseline#2, candidate#2, … */
export const look = (pairs: number, gpus = 0): Measure[] =>
  Array.from({ length: pairs }, (_, i) => {
    const k = i === 0 ? "" : `#${i + 1}`;
    return [measure(`baseline${k}`, gpus), measure(`candidate${k}`, gpus)];
  }).flat();

export function setup(compute = new FakeCompute()) {
  const root = tempDir("measurer-arrays-");
  const options = {
    arrays: { enabled: true, throttle: null },
    lanes: { account: "acct", partition: "cpu", gpuPartition: "gpu", gpuAccount: "", scheduled: true },
  };
  return {
    root,
    compute,
    measurer: testMeasurer(root, compute, options),
    again: () => testMeasurer(root, compute, options),
  };
}

/** How many times each eval dir's script went to the scheduler (as a job or an array task). */
export function submissionsPerScript(compute: FakeCompute): Map<string, number> {
  const counts = new Map<string, number>();
  for (const s of compute.submitted) counts.set(s.script!, (counts.get(s.script!) ?? 0) + 1);
  return counts;
}

/** A fake whose site lets `capacity` jobs in at a time: a bigger array is refused whole, as Slurm does. */
export class LimitedCompute extends FakeCompute {
  capacity: number;
  constructor(capacity: number) {
    super();
    this.capacity = capacity;
    this.room = { jobs: capacity, limit: "MaxSubmitJobs=10 (acct_lim)" };
  }
  override async submitArray(spec: JobSpec, tasks: number, throttle?: number): Promise<string> {
    if (tasks > this.capacity) {
      this.calls.push("sbatch --array");
      throw new SubmitLimitError("sbatch: error: AssocMaxSubmitJobLimit", "AssocMaxSubmitJobLimit");
    }
    this.capacity -= tasks;
    this.room = { jobs: this.capacity, limit: "MaxSubmitJobs=10 (acct_lim)" };
    return await super.submitArray(spec, tasks, throttle);
  }
}
