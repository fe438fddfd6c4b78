import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { provenanceJson, readProvenance } from "../../src/dispatch/provenance.ts";
import { tempDir } from "../helpers/temp.ts";

describe("readProvenance()", () => {
  it("reads the key=value lines the job script wrote, each gpu line a device", () => {
    const dir = tempDir("provenance-");
    writeFileSync(
      join(dir, "provenance"),
      [
        "host=node7",
        "started_at=2026-01-02T03:04:05Z",
        "ended_at=2026-01-02T03:05:06Z",
        "job_id=42",
        "node_list=node[7-8]",
        "cpu_model=EPYC = fast",
        "cpus=0-3",
        "gpu=GPU-a",
        "gpu=",
        "gpu=GPU-b",
        "colour=blue",
        "no equals sign",
        "",
      ].join("\n"),
    );
    assert.deepEqual(readProvenance(dir), {
      host: "node7",
      startedAt: "2026-01-02T03:04:05Z",
      endedAt: "2026-01-02T03:05:06Z",
      jobId: "42",
      nodeList: "node[7-8]",
      cpuModel: "EPYC = fast",
      cpus: "0-3",
      gpus: ["GPU-a", "GPU-b"],
    });
  });

  it("is null for an eval dir without one (the reference's, an earlier outerloop's)", () => {
    assert.equal(readProvenance(tempDir("provenance-")), null);
  });

  it("gives every key, empty when the file does not say it", () => {
    const dir = tempDir("provenance-");
    writeFileSync(join(dir, "provenance"), "host=h\n");
    assert.deepEqual(provenanceJson(readProvenance(dir)!), {
      host: "h",
      started_at: "",
      ended_at: "",
      job_id: "",
      node_list: "",
      cpu_model: "",
      cpus: "",
      gpus: [],
    });
  });
});
