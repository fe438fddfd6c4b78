import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { SlurmQueryError } from "../../src/compute/errors.ts";
import type { Runner } from "../../src/compute/runner.ts";
import {
  defaultQos,
  limitsEnforced,
  maxArraySizeOf,
  parseAssocMgr,
  parseConfig,
  parseQosLimits,
  roomFrom,
  type RoomInputs,
} from "../../src/compute/site_limits.ts";
import { SlurmCompute } from "../../src/compute/slurm.ts";
import type { SpawnResult } from "../../src/runtime/spawn_types.ts";
import { exited } from "../helpers/proc.ts";
import { slurmFixture } from "./_slurm_fixtures.ts";

const LIMITED = parseConfig(slurmFixture("scontrol-show-config.txt"));
const DEFAULT = parseConfig(slurmFixture("scontrol-show-config-default.txt"));
/** 3 held tasks of an array in acct_lim (MaxSubmitJobs=10 for root), a held job in acct_a. */
const ASSOC_MGR = slurmFixture("assoc-mgr.txt");

describe("scontrol show config", () => {
  it("gives MaxArraySize, 1001 when the site sets none", () => {
    assert.equal(maxArraySizeOf(LIMITED), 10);
    assert.equal(maxArraySizeOf(DEFAULT), 1001);
    assert.equal(maxArraySizeOf(new Map()), 1001);
    assert.equal(maxArraySizeOf(new Map([["MaxArraySize", "0"]])), 1001);
  });
  it("says whether limits are enforced: limits or safe in AccountingStorageEnforce", () => {
    assert.equal(LIMITED.get("AccountingStorageEnforce"), "associations,limits");
    assert.equal(limitsEnforced(LIMITED), true);
    assert.equal(limitsEnforced(DEFAULT), false);
    assert.equal(limitsEnforced(new Map([["AccountingStorageEnforce", "associations,limits,qos,safe"]])), true);
    assert.equal(limitsEnforced(new Map([["AccountingStorageEnforce", "safe"]])), true);
    assert.equal(limitsEnforced(new Map([["AccountingStorageEnforce", "none"]])), false);
    assert.equal(LIMITED.get("ClusterName"), "testbed");
  });
});

describe("parseAssocMgr()", () => {
  it("reads each association's submit limits and counts, and its parent", () => {
    const { assocs, qos } = parseAssocMgr(ASSOC_MGR);
    assert.equal(assocs.length, 8);
    assert.deepEqual(assocs.find((a) => a.account === "acct_lim" && a.user === "root"), {
      account: "acct_lim",
      user: "root",
      uid: "0",
      partition: "",
      parent: "",
      maxSubmit: { limit: 10, used: 3 },
      grpSubmit: { limit: null, used: 3 },
    });
    const acct = assocs.find((a) => a.account === "acct_lim" && a.user === "")!;
    assert.equal(acct.parent, "root");
    assert.equal(acct.maxSubmit, null, "MaxSubmitJobs= (empty) on an account's record");
    assert.deepEqual(qos.map((q) => q.name), ["normal"]);
    assert.deepEqual(qos[0]!.grpSubmit, { limit: null, used: 4 });
    assert.deepEqual(qos[0]!.perUser.get("0"), { limit: null, used: 4 });
    assert.deepEqual(qos[0]!.perAccount.get("acct_lim"), { limit: null, used: 3 });
  });
  it("reads a QOS's per-user limit once the user has a count there", () => {
    const [q] = parseAssocMgr(slurmFixture("assoc-mgr-qos-limit.txt")).qos;
    assert.equal(q!.name, "qlim");
    assert.deepEqual(q!.perUser.get("0"), { limit: 2, used: 2 });
    assert.deepEqual(q!.perAccount.get("acct_b"), { limit: null, used: 2 });
  });
});

describe("sacctmgr", () => {
  it("reads QOS limits, empty meaning none", () => {
    assert.deepEqual(parseQosLimits(slurmFixture("sacctmgr-qos.txt")).get("normal"), {
      maxSubmitPerUser: null,
      maxSubmitPerAccount: null,
      grpSubmit: null,
    });
    assert.deepEqual(parseQosLimits("qlim|2|5|\n").get("qlim"), {
      maxSubmitPerUser: 2,
      maxSubmitPerAccount: 5,
      grpSubmit: null,
    });
  });
  it("picks the QOS a job without --qos gets: the default, else the only one, else normal", () => {
    const rows =
      "acct_lim|root|||normal\nacct_b|root||long|normal,long\nacct_b|root|gpu||gpuq\nacct_c|root|||normal,x\n";
    assert.equal(defaultQos(rows, "acct_lim", ""), "normal");
    assert.equal(defaultQos(rows, "acct_b", ""), "long");
    assert.equal(defaultQos(rows, "acct_b", "gpu"), "gpuq");
    assert.equal(defaultQos(rows, "acct_c", ""), "normal");
    assert.equal(defaultQos(rows, "nope", ""), "normal");
    assert.equal(defaultQos(slurmFixture("sacctmgr-assoc.txt").replace(/^testbed\|/gm, ""), "acct_lim", ""), "normal");
  });
});

describe("roomFrom()", () => {
  const inputs = (over: Partial<RoomInputs> = {}, text = ASSOC_MGR): RoomInputs => ({
    ...parseAssocMgr(text),
    qosLimits: parseQosLimits(slurmFixture("sacctmgr-qos.txt")),
    user: "root",
    account: "acct_lim",
    partition: "",
    qosName: "normal",
    ...over,
  });

  it("leaves MaxSubmitJobs minus this user's pending and running tasks", () => {
    assert.deepEqual(roomFrom(inputs()), {
      jobs: 7,
      limit: "MaxSubmitJobs=10 of user root in account acct_lim (3 pending or running)",
    });
  });
  it("is null where no submit limit is set", () => {
    assert.equal(roomFrom(inputs({ account: "acct_a" })), null);
  });
  it("is null when the user has no association in the account", () => {
    assert.equal(roomFrom(inputs({ account: "acct_zz" })), null);
    assert.equal(roomFrom(inputs({ user: "alice" })), null);
  });
  it("takes the tightest limit, group limits of the accounts above included", () => {
    const grp = ASSOC_MGR.replace(/(Account=acct_lim UserName= .*?GrpSubmitJobs=)N\(3\)/, "$15(3)");
    assert.deepEqual(roomFrom(inputs({}, grp)), {
      jobs: 2,
      limit: "GrpSubmitJobs=5 of account acct_lim (3 pending or running)",
    });
    const top = grp.replace(/(Account=root UserName= .*?GrpSubmitJobs=)N\(4\)/, "$15(4)");
    assert.deepEqual(roomFrom(inputs({}, top)), {
      jobs: 1,
      limit: "GrpSubmitJobs=5 of account root (4 pending or running)",
    });
  });
  it("counts the QOS's per-user limit from sacctmgr, with the controller's count (0 before the user has one)", () => {
    const text = ASSOC_MGR.replace(/^QOS=.*$/m, "") + slurmFixture("assoc-mgr-qos-limit.txt");
    const q = { account: "acct_b", qosName: "qlim", qosLimits: parseQosLimits("normal|||\nqlim|2||\n") };
    assert.deepEqual(roomFrom(inputs(q, text)), {
      jobs: 0,
      limit: "MaxSubmitJobsPerUser=2 of QOS qlim for user root (2 pending or running)",
    });
    assert.deepEqual(roomFrom(inputs(q)), {
      jobs: 2,
      limit: "MaxSubmitJobsPerUser=2 of QOS qlim for user root (0 pending or running)",
    });
    const full = { ...q, qosLimits: parseQosLimits("qlim||1|\n") };
    assert.equal(roomFrom(inputs(full, text))?.jobs, 0, "MaxSubmitJobsPerAccount=1 with 2 in acct_b");
  });
  it("never goes below zero", () => {
    const over = ASSOC_MGR.replace("MaxSubmitJobs=10(3)", "MaxSubmitJobs=2(3)");
    assert.equal(roomFrom(inputs({}, over))?.jobs, 0);
  });
});

describe("SlurmCompute.submitRoom() and maxArraySize()", () => {
  const instant = { sleep: async () => {}, random: () => 0.5 };
  const scripted = (config: string, fail = "", user: string | null = "root") => {
    const calls: string[][] = [];
    const runner: Runner = (argv) => {
      calls.push([...argv]);
      const line = argv.join(" ");
      const answer = (
        out: string,
      ): SpawnResult => (fail && line.includes(fail) ? exited(1, "", "boom") : exited(0, out));
      if (line === "scontrol show config") return Promise.resolve(answer(config));
      if (line === "id -un") return Promise.resolve(answer("alice\n"));
      if (line.startsWith("scontrol -o show assoc_mgr")) return Promise.resolve(answer(ASSOC_MGR));
      if (line.startsWith("sacctmgr -n -P show assoc")) {
        return Promise.resolve(answer(slurmFixture("sacctmgr-assoc.txt")));
      }
      if (line.startsWith("sacctmgr -n -P show qos")) return Promise.resolve(answer(slurmFixture("sacctmgr-qos.txt")));
      return Promise.resolve(exited(1, "", `unexpected ${line}`));
    };
    return { calls, compute: new SlurmCompute({ runner, ...(user === null ? {} : { user }), ...instant }) };
  };

  it("reads the controller's counts and sacctmgr's QOS limits, the config once", async () => {
    const { calls, compute } = scripted(slurmFixture("scontrol-show-config.txt"));
    assert.equal((await compute.submitRoom({ account: "acct_lim", partition: "" }))?.jobs, 7);
    assert.deepEqual(calls, [
      ["scontrol", "show", "config"],
      ["scontrol", "-o", "show", "assoc_mgr", "users=root", "flags=assoc,qos"],
      [
        "sacctmgr",
        "-n",
        "-P",
        "show",
        "assoc",
        "where",
        "user=root",
        "account=acct_lim",
        "cluster=testbed",
        "format=Account,User,Partition,DefaultQOS,QOS",
      ],
      ["sacctmgr", "-n", "-P", "show", "qos", "normal", "format=Name,MaxSubmitPU,MaxSubmitPA,GrpSubmit"],
    ]);
    calls.length = 0;
    assert.equal(await compute.submitRoom({ account: "acct_a", qos: "normal" }), null);
    assert.deepEqual(calls.map((c) => c.slice(0, 4).join(" ")), ["scontrol -o show assoc_mgr", "sacctmgr -n -P show"]);
    assert.equal(await compute.maxArraySize(), 10);
    assert.equal(calls.length, 2, "the config was read once");
  });

  it("is null without asking further where limits are not enforced; MaxArraySize 1001 there", async () => {
    const { calls, compute } = scripted(slurmFixture("scontrol-show-config-default.txt"));
    assert.equal(await compute.submitRoom({ account: "acct_lim" }), null);
    assert.equal(await compute.maxArraySize(), 1001);
    assert.equal(calls.length, 1);
  });

  it("asks the system who this user is (id -un) once, when not told", async () => {
    const { calls, compute } = scripted(slurmFixture("scontrol-show-config.txt"), "", null);
    assert.equal(await compute.submitRoom({ account: "acct_lim", qos: "normal" }), null, "alice has no association");
    await compute.submitRoom({ account: "acct_lim", qos: "normal" });
    assert.deepEqual(calls.filter((c) => c[0] === "id"), [["id", "-un"]]);
    assert.equal(calls.find((c) => c[1] === "-o")![4], "users=alice");
  });

  it("rejects with a SlurmQueryError when it cannot tell", async () => {
    const { compute } = scripted(slurmFixture("scontrol-show-config.txt"), "assoc_mgr");
    await assert.rejects(compute.submitRoom({ account: "acct_lim" }), SlurmQueryError);
    const blind = scripted("", "config");
    await assert.rejects(blind.compute.maxArraySize(), SlurmQueryError);
  });
});
