import { MeasurementPending } from "../../src/measure/pending.ts";

/** The MeasurementPending that `p` rejects with (a park); throws when it resolves or fails otherwise. */
export async function pendingOf(p: Promise<unknown>): Promise<MeasurementPending> {
  try {
    await p;
  } catch (err) {
    if (err instanceof MeasurementPending) return err;
    throw err;
  }
  throw new Error("expected MeasurementPending");
}
