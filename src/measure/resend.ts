import { log } from "../log.ts";
import { setAsideAttempt } from "./attempts.ts";
import type { DispatchUnit } from "./dispatch_unit.ts";
import type { MeasurerContext } from "./measurer_context.ts";
import { failed, type Outcome } from "./read_look.ts";
import { MAX_RETRIES, nextRetry } from "./retry.ts";

/**
 * Sends a unit again when its job ended for a cause that is nobody's code
 * (an `Outcome` of kind `resend`; retry.ts), or when its marker names a job
 * already set aside (a pass died while setting it aside): the unit is set
 * aside whole — a pair's measures run again together, a done partner too
 * (its attempt kept) — and made undispatched, while it has retries left;
 * else each such measure fails as `lost`. `outcomes` is updated in place;
 * true when the unit is to be dispatched again. A unit whose job the
 * listing shows (`live`) has nothing set aside, and its lists are not read.
 */
export function resendIfNobodysCode(
  ctx: MeasurerContext,
  u: DispatchUnit,
  outcomes: Map<string, Outcome>,
  live: boolean,
): boolean {
  const dirs = u.members.map((m) => ctx.evalDir(m));
  const dead = u.members.flatMap((m) => {
    const o = outcomes.get(m.name);
    return o?.kind === "resend" ? [{ m, o }] : [];
  });
  if (dead.length === 0 && live) return false;
  const aside = ctx.setAside(u);
  const stale = u.members.map((m) => ctx.dir(m).marker).find((id) => id !== "" && aside.has(id));
  const undispatched = () => {
    ctx.reread(u);
    for (const m of u.members) outcomes.delete(m.name);
    return true;
  };
  if (dead.length === 0) {
    if (stale === undefined) return false;
    const as = u.members.some((m) => ctx.dir(m).forgotten.includes(stale)) ? "forgotten" : "retried";
    setAsideAttempt(dirs, ctx.unitMarkerPath(u), stale, as, "set aside by an earlier pass");
    return undispatched();
  }
  const { m: first, o } = dead[0]!;
  const retry = nextRetry(ctx.dir(first).retried, o.jobId);
  if (retry === null) {
    for (const { m, o: d } of dead) {
      const why = `job ${d.jobId} ended ${d.endState} without a result, and it was sent again ${MAX_RETRIES} ` +
        "times already";
      outcomes.set(m.name, failed(m, d.jobId, "lost", why, { message: `measure ${m.name}: ${why}` }));
    }
    return false;
  }
  setAsideAttempt(dirs, ctx.unitMarkerPath(u), o.jobId, "retried", `job ${o.jobId} ended ${o.endState}`);
  log.warn(
    `measure ${first.name}: job ${o.jobId} ended ${o.endState}, which is no fault of its code: sent again ` +
      `(retry ${retry} of ${MAX_RETRIES})`,
  );
  return undispatched();
}
