"""Writes tests/fixtures/argv_vectors.json: JobSpec.to_argv() of the Python
reference for every combination of optional fields, so the TypeScript port is
tested against the reference's own output, never against itself.

Usage: python3 scripts/argv_vectors.py [path/to/reference/outerloop]"""

import itertools
import json
import sys
from pathlib import Path

ref = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parents[2] / "shared/reference/outerloop")
sys.path.insert(0, str(ref.parent))
from outerloop.compute import JobSpec, quote_command  # noqa: E402

options = {
    "partition": ["", "gpu"],
    "gpus": [0, 2],
    "qos": ["", "high"],
    "dependency": ["", "afterany:1:2"],
    "begin": ["", "now+30"],
    "extra": [(), ("--exclusive", "--nice=10")],
    "body": [("command", "echo 'hi there' && true"), ("script", "/tmp/job.sh")],
    "script_args": [(), ("a b", "--x=1")],
}
vectors = []
for combo in itertools.product(*options.values()):
    kw = dict(zip(options.keys(), combo))
    kind, body = kw.pop("body")
    if kind == "command" and kw["script_args"]:
        continue
    spec = JobSpec(
        job_name="eval-run-baseline-0123456789abcdef",
        account="acct_a",
        time_minutes=17,
        cpus=3,
        mem="5G",
        output="/tmp/out.log",
        **{kind: body},
        **kw,
    )
    fields = {k: (list(v) if isinstance(v, tuple) else v) for k, v in spec.__dict__.items()}
    vectors.append({"spec": fields, "argv": spec.to_argv()})
defaults = JobSpec(job_name="j", account="a", partition="", time_minutes=1, command="true")
vectors.append({"spec": {"job_name": "j", "account": "a", "partition": "", "time_minutes": 1, "command": "true"}, "argv": defaults.to_argv()})

words = ["", "plain", "a b", "it's", '"dq"', "$(touch x)", "`id`", "new\nline", "tab\there", "ünï", "a;b|c&d", "*?[", "-flag", "=", "@%+=:,./-_"]
quoted = {"words": words, "quoted": [quote_command([w]) for w in words], "joined": quote_command(words)}
out = Path(__file__).resolve().parents[1] / "tests/fixtures/argv_vectors.json"
out.write_text(json.dumps({"argv": vectors, "quote": quoted}, indent=1, ensure_ascii=False) + "\n")
print(f"wrote {len(vectors)} argv vectors to {out}")
