#!/usr/bin/env python3
"""A keep / discard / crash loop on outerloop: python3, standard library only.

Each proposal is committed on top of the best commit so far and measured against it.
outerloop's exit code says what to do: 0 keep, 10 or 11 discard, 12 crash; anything else
stops the loop (3 the run failed, 4 the scheduler, 2 bad input, 75 still parked). Each
decided proposal appends a row to results.tsv: commit, metric, status, description.

Usage: python3 loop.py REPO CONTRACT RUNS_DIR [outerloop measure flags...]
"""
import json
import subprocess
import sys
from pathlib import Path

repo, contract, runs, flags = sys.argv[1], sys.argv[2], Path(sys.argv[3]), sys.argv[4:]
STATUS = {0: "keep", 10: "discard", 11: "discard", 12: "crash"}


def git(*args):
    return subprocess.run(["git", "-C", repo, *args], check=True, capture_output=True, text=True).stdout.strip()


def propose(best, n):
    """Your proposer goes here (an agent editing the code); this one applies scripted proposal n to best."""
    exists = subprocess.run(["git", "-C", repo, "rev-parse", "-q", "--verify", f"proposal/{n}"], capture_output=True)
    if exists.returncode != 0:
        return None
    git("checkout", "-q", "--detach", best)
    git("cherry-pick", f"proposal/{n}")
    return git("rev-parse", "HEAD")


best, n = git("rev-parse", "main"), 0
metric_name = json.loads(Path(contract).read_text())["metric"]
results = Path("results.tsv")
while (candidate := propose(best, n + 1)) is not None:
    n += 1
    run_dir = runs / f"r{n}"
    argv = ["outerloop", "measure", "--repo", repo, "--base", best, "--candidate", candidate,
            "--contract", contract, "--run-dir", str(run_dir), "--wait", "--json", *flags]
    done = subprocess.run(argv, stdout=subprocess.PIPE, text=True)
    out = json.loads(done.stdout)  # one object on every exit
    if done.returncode not in STATUS:
        message = out["error"]["message"] if out["status"] == "error" else out["status"]
        sys.exit(f"{run_dir}: exit {done.returncode}: {message}\n(see: outerloop show {run_dir})")
    status = STATUS[done.returncode]
    with results.open("a") as tsv:
        if n == 1:  # the header, and the first baseline as autoresearch's first row
            tsv.write(f"commit\t{metric_name}\tstatus\tdescription\n")
            tsv.write(f"{best[:7]}\t{out['means']['baseline']:.6g}\tkeep\tbaseline\n")
        metric = "0.000000" if status == "crash" else f"{out['means']['candidate']:.6g}"
        cause = f" ({out['crash']['cause']})" if out["crash"] else ""
        tsv.write(f"{candidate[:7]}\t{metric}\t{status}\t{out['label']}{cause}\n")
    print(f"{run_dir.name}: {status}: {out['label']}")
    if status == "keep":
        best = candidate
        git("branch", "-f", "main", best)
