import { join } from "node:path";
import { arrayChunks, DEFAULT_MAX_ARRAY_SIZE, taskRef } from "../compute/array.ts";
import { type JobSpec, withDefaults } from "../compute/job_spec.ts";
import { ARRAY_FILES, ARRAY_OUTPUT, markArrayJob, writeArrayJob } from "../dispatch/array_job.ts";
import { evalJobSpec } from "../dispatch/eval_job_spec.ts";
import { writePairJob } from "../dispatch/pair_job.ts";
import { writeEvalJob } from "../dispatch/write_eval_job.ts";
import { log } from "../log.ts";
import { type DispatchUnit, unitResources } from "./dispatch_unit.ts";
import { arrayJobName } from "./identity.ts";
import { measureEnv } from "./measure.ts";
import type { MeasurerContext } from "./measurer_context.ts";
import { placement } from "./placement.ts";
import { sendOneWithinRoom, sendWithinRoom, type Sent } from "./submit_limits.ts";
import { unitWords } from "./unit_words.ts";

/**
 * Dispatches `units`, in order: one job each, or — with arrays on and two
 * or more units sharing their sbatch options — one array per option set
 * (and per MaxArraySize chunk), its manifest written before the sbatch. A
 * submission a site's submit limit refuses leaves the rest for a later pass
 * (submit_limits.ts). The job (or `A_T`) each unit got.
 */
export async function dispatchAll(ctx: MeasurerContext, units: readonly DispatchUnit[]): Promise<Sent> {
  const jobs = new Map<DispatchUnit, string>();
  const waiting: DispatchUnit[] = [];
  let limit = "";
  const arrays = ctx.o.arrays?.enabled === true;
  const groups = new Map<string, { spec: JobSpec; units: DispatchUnit[] }>();
  for (const u of units) {
    if (waiting.length > 0) {
      waiting.push(u); // the limit is reached: the rest waits, in order
      continue;
    }
    const spec = prepare(ctx, u);
    if (!arrays) {
      const sent = await sendOneWithinRoom(() => submitOne(ctx, u, spec));
      if (typeof sent === "string") jobs.set(u, sent);
      else {
        waiting.push(u);
        limit = sent.limit;
      }
      continue;
    }
    const key = optionKey(spec);
    const g = groups.get(key) ?? { spec, units: [] };
    g.units.push(u);
    groups.set(key, g);
  }
  if (!arrays) return { jobs, waiting, limit };
  const maxSize = groups.size > 0 ? await maxArraySize(ctx) : 1;
  for (const { spec, units: members } of groups.values()) {
    let rest = [...members];
    for (const size of arrayChunks(members.length, maxSize)) {
      const chunk = rest.slice(0, size);
      rest = rest.slice(size);
      if (waiting.length > 0) {
        waiting.push(...chunk);
        continue;
      }
      const sent = await sendWithinRoom(
        ctx.o.compute,
        chunk,
        spec,
        (some) =>
          some.length === 1
            ? submitOne(ctx, some[0]!, spec).then((id) => new Map([[some[0]!, id]]))
            : submitArray(ctx, some, spec),
      );
      for (const [u, ref] of sent.jobs) jobs.set(u, ref);
      if (sent.waiting.length > 0) {
        waiting.push(...sent.waiting);
        limit = sent.limit;
      }
    }
  }
  return { jobs, waiting, limit };
}

/** Writes the unit's job — each measure's eval job script, and for a pair the pair job's — and its spec. */
function prepare(ctx: MeasurerContext, u: DispatchUnit): JobSpec {
  ctx.o.beforeDispatch?.();
  const o = ctx.o;
  const { account, partition } = placement(o.lanes, u.members[0]!.gpus, capitalized(unitWords(u)));
  const scripts = u.members.map((m) =>
    writeEvalJob(o.root, ctx.slot(m), {
      repoRoot: o.repoRoot,
      snapshotSha: m.treeSha,
      command: m.command,
      image: o.image,
      extraEnv: measureEnv(m),
      gpus: m.gpus,
      seedCache: o.seedCache,
    })
  );
  const size = unitResources(u, o);
  const script = u.mode === "one" ? scripts[0]! : writePairJob(ctx.unitDir(u), u.mode, scripts);
  return evalJobSpec(script, {
    jobName: ctx.unitJobName(u),
    account,
    partition,
    evalMinutes: size.minutes,
    mem: size.mem,
    cpus: size.cpus,
    gpus: size.gpus,
  });
}

/** One unit as a job of its own. */
async function submitOne(ctx: MeasurerContext, u: DispatchUnit, spec: JobSpec): Promise<string> {
  const shas = [...new Set(u.members.map((m) => m.treeSha.slice(0, 12)))].join(", ");
  // a backend that runs the job inside submit logs its end there: what it runs is said before it starts
  if (ctx.o.compute.runsOnSubmit === true) log.info(`running ${unitWords(u)} (sha ${shas}) locally`);
  const jobId = await ctx.o.compute.submit(spec);
  ctx.mark(u, jobId);
  if (ctx.o.compute.runsOnSubmit !== true) log.info(`dispatched ${unitWords(u)} (sha ${shas}) as job ${jobId}`);
  return jobId;
}

/** Units as ONE job array: the manifest written first, then the sbatch, then the array's id and each unit's `A_T`. */
async function submitArray(
  ctx: MeasurerContext,
  units: readonly DispatchUnit[],
  spec: JobSpec,
): Promise<Map<DispatchUnit, string>> {
  // an array that sends measures again after their attempts were set aside (attempts.ts) says so in its
  // manifest: never the manifest, nor so the name, of the array they ran in
  const after = [...new Set(units.flatMap((u) => [...ctx.setAside(u)]))].sort();
  const scripts = units.map((u) => withDefaults({ ...spec, script: ctx.unitScript(u) }).script);
  const array = writeArrayJob(ctx.o.root, scripts, after);
  const arraySpec: JobSpec = {
    ...spec,
    jobName: arrayJobName(ctx.o.runTag, array.hash),
    script: join(array.dir, ARRAY_FILES.script),
    output: join(array.dir, ARRAY_OUTPUT),
  };
  const throttle = ctx.o.arrays?.throttle ?? undefined;
  const local = ctx.o.compute.runsOnSubmit === true;
  if (local) log.info(`running ${units.length} job(s) locally as one job array: ${named(units)}`);
  const arrayId = await ctx.o.compute.submitArray(arraySpec, units.length, throttle ?? undefined);
  ctx.arrays = [...ctx.arrays.filter((a) => a.dir !== array.dir), markArrayJob(array, arrayId)];
  const jobs = new Map<DispatchUnit, string>();
  units.forEach((u, i) => {
    const ref = taskRef(arrayId, i);
    ctx.mark(u, ref);
    jobs.set(u, ref);
  });
  if (!local) {
    log.info(
      `dispatched ${units.length} job(s) as one job array ${arrayId}, tasks 0-${units.length - 1}: ${named(units)}`,
    );
  }
  return jobs;
}

/** The units of a log line: the first few by name, the rest counted (a look of 1000 is not a 25 KB line). */
function named(units: readonly DispatchUnit[]): string {
  const shown = units.slice(0, 3).map((u) => unitWords(u)).join("; ");
  return units.length > 3 ? `${shown}; and ${units.length - 3} more` : shown;
}

/** The site's MaxArraySize, asked once per measurer; 1001 (Slurm's default) when it cannot be read. */
async function maxArraySize(ctx: MeasurerContext): Promise<number> {
  if (ctx.maxArray === null) {
    try {
      ctx.maxArray = await ctx.o.compute.maxArraySize();
    } catch (err) {
      log.warn(
        `cannot read the site's MaxArraySize, taking Slurm's default ${DEFAULT_MAX_ARRAY_SIZE}: ${
          (err as Error).message
        }`,
      );
      ctx.maxArray = DEFAULT_MAX_ARRAY_SIZE;
    }
  }
  return ctx.maxArray;
}

/** What makes two units' jobs one array: every sbatch option but the job's name and script. */
function optionKey(spec: JobSpec): string {
  const { jobName: _name, script: _script, output: _output, ...options } = withDefaults(spec);
  return JSON.stringify(options);
}

function capitalized(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
