#!/usr/bin/env python3
"""Test vectors for src/measure/, computed by the Python REFERENCE itself.

Imports the reference's measure.py by path (with stub modules for the
outerloop.dispatch / outerloop.orchestrator imports it needs only at call
time of code we never call) and records what ITS code returns: measure
identities (`_det`, `_slot`, `_ev`, `_job_name`), plans (`plan_measures`),
`_no_result_note`, `MeasurementPending`, and `read_baseline_cache` over a set
of cache files. The TypeScript tests compare against these vectors, never
against our own output.

Usage:
  scripts/identity_vectors.py                 write tests/fixtures/identity_vectors.json
  scripts/identity_vectors.py --read DIR BENCHMARK BASE_SHA WANT_JSON
        print the reference's read_baseline_cache(...) result as JSON
        (used by tests/measure/baseline_cache_test.ts to read OUR files with THEIR reader)

The reference is found at $OUTERLOOP_REFERENCE, default
/work/shared/reference/outerloop.
"""

from __future__ import annotations

import json
import math
import os
import sys
import tempfile
import types
from pathlib import Path

REF = Path(os.environ.get("OUTERLOOP_REFERENCE", "/work/shared/reference/outerloop"))
OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "identity_vectors.json"


def load_reference() -> types.ModuleType:
    if not (REF / "measure.py").is_file():
        sys.exit(f"reference measure.py not found in {REF}; set OUTERLOOP_REFERENCE")
    pkg = types.ModuleType("outerloop")
    pkg.__path__ = [str(REF)]
    sys.modules["outerloop"] = pkg

    def unused(*_a, **_k):
        raise AssertionError("not needed for vectors")

    dispatch = types.ModuleType("outerloop.dispatch")
    dispatch.eval_job_spec = dispatch.read_eval_result = dispatch.write_eval_job = unused
    sys.modules["outerloop.dispatch"] = dispatch
    orchestrator = types.ModuleType("outerloop.orchestrator")
    orchestrator.EvalError = type("EvalError", (Exception,), {})
    sys.modules["outerloop.orchestrator"] = orchestrator
    import outerloop.measure as measure  # the real compute.py loads from REF

    return measure


ref = load_reference()

SHA1 = "0123456789abcdef0123456789abcdef01234567"
SHA2 = "fedcba9876543210fedcba9876543210fedcba98"
SHA256 = "ab" * 32


def identity_cases() -> list[tuple[str, str, dict]]:
    """(image, run_tag, measure fields) — varied where JS and Python differ."""
    def m(name="baseline", tree_sha=SHA1, command="python bench.py", metric="score", env=(), gpus=0):
        return {"name": name, "tree_sha": tree_sha, "command": command, "metric": metric,
                "extra_env": [list(p) for p in env], "gpus": gpus}

    img = "docker://ghcr.io/org/eval:1.2"
    return [
        (img, "run", m(env=[("SEED", "7")])),
        ("", "run", m()),
        ("", "", m(name="candidate", tree_sha=SHA2)),
        (img, "2024-06-01T12-00-00", m(env=[("Z", "1"), ("A", "2"), ("M", "3")])),
        (img, "run", m(env=[("SEED", "1"), ("OTHER", "x"), ("SEED", "2")])),  # dict(): last wins
        (img, "run", m(env=[("b", "1"), ("B", "2"), ("_", "3"), ("a", "4"), ("0", "5")])),
        (img, "café-run-é", m(name="café-précis", metric="précision", env=[("CLÉ", "valeur é")])),
        (img, "ÄÖÜäöüßÿ€x", m(name="naïve-résumé-ü", command="echo 'Grüße'")),
        (img, "运行标签一二三四五六七", m(name="基准测试名称很长的名字啊啊", metric="分数")),
        (img, "実行", m(name="sib-ベンチ-base", env=[("種", "42")])),
        (img, "run", m(name="abcdefghijk😀xyz")),  # astral char is code point 12
        (img, "run", m(name="abcdefghijkl😀")),  # astral char is code point 13
        (img, "run", m(name="abcdefghijk😀")),  # exactly 12 code points, 13 UTF-16 units
        (img, "runtag123😀tail", m()),  # astral char is code point 10
        (img, "runtag1234😀", m()),  # astral char is code point 11
        (img, "😀😀😀😀😀😀😀😀😀😀😀😀", m(name="😀😀😀😀😀😀😀😀😀😀😀😀😀😀")),
        (img, "𝔘𝔘𝔘𝔘𝔘𝔘𝔘𝔘𝔘𝔘𝔘", m(name="𝔘𝔘𝔘𝔘𝔘𝔘𝔘𝔘𝔘𝔘𝔘𝔘𝔘𝔘", metric="𝔘")),
        (img, "run", m(env=[("\U0001F600", "astral"), ("\uFF61", "bmp-high")])),
        (img, "run", m(env=[("\uFF61", "bmp-high"), ("\U0001F600", "astral")])),
        (img, "run", m(env=[("\U00010000", "1"), ("\uE000", "2"), ("\uD7FF", "3"), ("\uFFFF", "4")])),
        (img, "run", m(env=[("a\U0001F600", "1"), ("a\uFFFF", "2"), ("a", "3"), ("a\uE000", "4")])),
        (img, "run", m(env=[("\U0010FFFF", "max"), ("\U0001D518", "fraktur"), ("\u00E9", "e-acute")])),
        (img, "run", m(env=[("K", "value with spaces"), ("Q", "it's \"quoted\""), ("N", "line1\nline2\r\n")])),
        (img, "run", m(env=[("EQ", "a=b=c"), ("TAB", "\tx\t"), ("EMPTY", "")])),
        (img, "run", m(env=[("", "empty key"), (" ", "space key")])),
        (img, "run", m(env=[("__proto__", "p"), ("constructor", "c"), ("toString", "t"), ("hasOwnProperty", "h")])),
        (img, "run", m(env=[("10", "ten"), ("2", "two"), ("1", "one"), ("01", "zero-one")])),
        (img, "run", m(command="bash -c 'echo \"$SEED\"'\nsecond line\\n", env=[("SEED", "3")])),
        (img, "run", m(command="x" * 10000)),
        (img, "exactly10!", m(name="exactly12chr")),
        (img, "run", m(tree_sha=SHA256)),
        (img, "run", m(gpus=2, env=[("SEED", "99")])),
        (img, "run", m(name="e\u0301", env=[("\u00e9", "composed"), ("e\u0301", "decomposed")])),
        (img, "run", m(name="👩\u200d👩\u200d👧-family")),
        (img, "run", m(name="\uFFFF\U0010FFFF", metric="\u0080\u07FF\u0800")),
        (img + "@sha256:" + "c" * 64, "tag with space", m(name="sib-tsp-cand", tree_sha=SHA2)),
        ("image\0with-nul", "run", m(command="a\0b")),  # NUL parts: still unambiguous bytes
        (img, "run", m(name="sib-😀-base", env=[("SIB_SEED", "123456789")])),
        (img, "r\u00e9\U0001F600\u4e2d\u00e9\U0001F600\u4e2d\u00e9\U0001F600\u4e2d", m(name="x" * 40)),
        (img, "run", m(env=[(chr(c), str(c)) for c in (0x41, 0x7F, 0x80, 0x7FF, 0xD7FF, 0xE000, 0xFFFD, 0x10000, 0x1F600)])),
    ]


def lone_surrogate_cases() -> list[tuple[str, str, dict]]:
    base = {"name": "baseline", "tree_sha": SHA1, "command": "c", "metric": "m", "extra_env": [], "gpus": 0}
    return [
        ("", "run", {**base, "name": "bad\ud800name"}),
        ("", "run\udc00", base),
        ("", "run", {**base, "extra_env": [["K", "v\ud83d"]]}),
    ]


def measure_of(d: dict):
    return ref.Measure(d["name"], d["tree_sha"], d["command"], d["metric"],
                       tuple(tuple(p) for p in d["extra_env"]), gpus=d["gpus"])


def measurer(image: str, run_tag: str):
    return ref.DispatchedMeasurer(compute=None, run_dir=Path("/run"), repo_root=Path("/repo"),
                                  image=image, account="", partition="", eval_minutes=1, run_tag=run_tag)


def identity_vectors() -> list[dict]:
    out = []
    for image, run_tag, md in identity_cases():
        dm, m = measurer(image, run_tag), measure_of(md)
        out.append({"image": image, "run_tag": run_tag, "measure": md, "det": dm._det(m),
                    "slot": dm._slot(m), "eval_dir": dm._ev(m).name, "job_name": dm._job_name(m)})
    for image, run_tag, md in lone_surrogate_cases():
        dm, m = measurer(image, run_tag), measure_of(md)
        try:
            dm._job_name(m)
            raise AssertionError("reference encoded a lone surrogate")
        except UnicodeEncodeError as exc:
            out.append({"image": image, "run_tag": run_tag, "measure": md, "raises": type(exc).__name__})
    return out


def plan_vectors() -> list[dict]:
    S = ref.SiblingSpec
    cases = [
        dict(command="c", metric="m", base_sha=SHA1, candidate_sha=SHA2),
        dict(command="python b.py", metric="score", base_sha=SHA1, candidate_sha=SHA2, seed_env="SEED", seed=42, gpus=1),
        dict(command="c", metric="m", base_sha=SHA1, candidate_sha=SHA2, seed_env="SEED", seed=0),
        dict(command="c", metric="m", base_sha=SHA1, candidate_sha=SHA2, seed_env="", seed=5),
        dict(command="c", metric="m", base_sha=SHA1, candidate_sha=SHA2, seed_env="SEED", seed=-3),
        dict(command="c", metric="m", base_sha=SHA1, candidate_sha=SHA2, seed_env="SEED", seed=7,
             siblings=(S("tsp", "run tsp", "tour", seed_env="TSP_SEED", seed=7, gpus=0),
                       S("vrp", "run vrp", "cost", seed_env="", seed=7, gpus=2),
                       S("knap", "run knap", "value", seed_env="K_SEED", seed=0, gpus=1),
                       S("ベンチ😀", "run x", "score", seed_env="X_SEED", seed=7))),
        dict(command="c", metric="m", base_sha=SHA1, candidate_sha=SHA1, seed_env="S", seed=2**40,
             siblings=(S("same", "c", "m", seed_env="S", seed=2**40),)),
    ]
    out = []
    for c in cases:
        plan = ref.plan_measures(**c)
        inp = {k: v for k, v in c.items() if k != "siblings"}
        inp["siblings"] = [{"name": s.name, "command": s.command, "metric": s.metric, "seed_env": s.seed_env,
                            "seed": s.seed, "gpus": s.gpus} for s in c.get("siblings", ())]
        out.append({"input": inp, "measures": [
            {"name": m.name, "tree_sha": m.tree_sha, "command": m.command, "metric": m.metric,
             "extra_env": [list(p) for p in m.extra_env], "gpus": m.gpus} for m in plan]})
    return out


def note_vectors() -> list[dict]:
    states = ["TIMEOUT", "TIMEOUT+", "CANCELLED by 123", "CANCELLED", "FAILED", "COMPLETED", "OUT_OF_MEMORY",
              "NODE_FAIL", "PREEMPTED", "BOOT_FAIL", "DEADLINE", "GONE", "", "RUNNING", "PENDING", "UNKNOWN"]
    return [{"job_id": j, "state": s, "note": ref._no_result_note(j, s)} for j in ("123", "") for s in states]


def pending_vectors() -> list[dict]:
    out = []
    for ids in [(), ("17",), ("17", "18", "1234567")]:
        p = ref.MeasurementPending(ids)
        out.append({"job_ids": list(ids), "message": str(p), "afterany": p.afterany()})
    return out


def read_reference(cache_dir: Path, bench: str, sha: str, want: dict) -> dict:
    try:
        got = ref.read_baseline_cache(cache_dir, bench, sha, **want)
    except Exception as exc:  # the reference crashes on some stored values
        return {"kind": "raises", "error": type(exc).__name__}
    if got is None:
        return {"kind": "none"}
    v = float(got["value"])
    return {"kind": "entry", "value_repr": repr(v), "data": got if all(
        not isinstance(x, float) or math.isfinite(x) for x in got.values()) else None}


def baseline_read_vectors() -> list[dict]:
    w = {"image": "img", "command": "cmd", "metric": "score", "seed_env": "SEED", "gpus": 1}
    full = {"value": 1.5, "seed": 3, "run": "r", "base_sha": SHA1, "image": "img", "command": "cmd",
            "metric": "score", "seed_env": "SEED", "gpus": 1}

    def j(**over):
        d = {**full, **over}
        return json.dumps({k: v for k, v in d.items() if v is not DROP}).encode()

    texts: list[tuple[str, bytes, dict]] = [
        ("a full matching entry", j(), w),
        ("an entry read with no determinants", json.dumps({"value": 2}).encode(), {}),
        ("missing keys default to empty", json.dumps({"value": 2}).encode(), w),
        ("a different image", j(image="other"), w),
        ("a different command", j(command="cmd2"), w),
        ("a different metric", j(metric="m2"), w),
        ("a different seed var", j(seed_env="S2"), w),
        ("a different gpu count", j(gpus=2), w),
        ("gpus null", j(gpus=None), {**w, "gpus": 0}),
        ("gpus false", j(gpus=False), {**w, "gpus": 0}),
        ("gpus true", j(gpus=True), w),
        ("gpus 1.9", j(gpus=1.9), w),
        ("gpus string 1", j(gpus="1"), w),
        ("gpus string with spaces", j(gpus=" 1 "), w),
        ("gpus empty string", j(gpus=""), {**w, "gpus": 0}),
        ("gpus empty list", j(gpus=[]), {**w, "gpus": 0}),
        ("gpus empty object", j(gpus={}), {**w, "gpus": 0}),
        ("gpus arabic digit", j(gpus="١"), w),
        ("gpus underscore", j(gpus="0_1"), w),
        ("gpus string 1.0", j(gpus="1.0"), w),
        ("gpus list", j(gpus=[1]), w),
        ("gpus nan", b'{"value": 1, "gpus": NaN}', {}),
        ("image null", j(image=None), w),
        ("image number", j(image=1), w),
        ("value string", j(value="1.5"), w),
        ("value padded string", j(value=" 2 "), w),
        ("value exponent", j(value="1e3"), w),
        ("value inf", j(value="inf"), w),
        ("value -Infinity", j(value="-Infinity"), w),
        ("value nan string", j(value="nan"), w),
        ("value NaN string", j(value="NaN"), w),
        ("value underscores", j(value="1_000.5"), w),
        ("value bad underscores", j(value="1__0"), w),
        ("value unicode digits", j(value="١٢.٥"), w),
        ("value math digits", j(value="𝟏𝟐"), w),
        ("value unicode spaces", j(value="\u00a03\u3000"), w),
        ("value BOM in string", j(value="\ufeff3"), w),
        ("value hex", j(value="0x10"), w),
        ("value trailing dot", j(value="1."), w),
        ("value leading dot", j(value=".5"), w),
        ("value bare e", j(value="1e"), w),
        ("value true", j(value=True), w),
        ("value false", j(value=False), w),
        ("value null", j(value=None), w),
        ("value list", j(value=[1]), w),
        ("value object", j(value={}), w),
        ("value empty string", j(value=""), w),
        ("value word", j(value="fast"), w),
        ("value superscript", j(value="²"), w),
        ("value negative zero", j(value=-0.0), w),
        ("value big", j(value=1e300), w),
        ("no value", j(value=DROP), w),
        ("a JSON list", b"[1, 2]", {}),
        ("a JSON string", b'"1.5"', {}),
        ("a JSON number", b"1.5", {}),
        ("not JSON", b"{value: 1}", {}),
        ("empty file", b"", {}),
        ("truncated", j()[:20], w),
        ("a UTF-8 BOM", b"\xef\xbb\xbf" + j(), w),
        ("invalid UTF-8", b'{"value": 1, "image": "\xff"}', {"image": "\ufffd"}),
        ("raw UTF-8 strings", json.dumps({**full, "image": "imagé😀"}, ensure_ascii=False).encode(), {**w, "image": "imagé😀"}),
        ("escaped astral strings", json.dumps({**full, "image": "imagé😀"}).encode(), {**w, "image": "imagé😀"}),
        ("duplicate keys, last wins", b'{"value": "x", "value": 4}', {}),
        ("__proto__ key", b'{"value": 1, "__proto__": {"image": "img"}}', {}),
        ("surrounding whitespace", b" \n\t" + j() + b"\r\n ", w),
    ]
    out = []
    with tempfile.TemporaryDirectory() as td:
        d = Path(td)
        for i, (why, raw, want) in enumerate(texts):
            bench = f"b{i}"
            (d / f"{bench}@{SHA1}.json").write_bytes(raw)
            out.append({"why": why, "file_hex": raw.hex(), "want": want,
                        "result": read_reference(d, bench, SHA1, want)})
        out.append({"why": "no file", "file_hex": None, "want": {},
                    "result": read_reference(d, "absent", SHA1, {})})
    return out


def python_written() -> dict:
    """A file written by the reference's write_baseline_cache, for our reader."""
    args = {"value": 0.125, "seed": 77, "run_tag": "run-é😀", "image": "img", "command": "c m d",
            "metric": "score", "seed_env": "SEED", "gpus": 2}
    with tempfile.TemporaryDirectory() as td:
        ref.write_baseline_cache(Path(td), "bench", SHA1, **args)
        raw = (Path(td) / f"bench@{SHA1}.json").read_bytes()
    return {"benchmark": "bench", "base_sha": SHA1, "args": args, "file_hex": raw.hex()}


class _Drop:
    pass


DROP = _Drop()


def main() -> None:
    if len(sys.argv) >= 2 and sys.argv[1] == "--read":
        _, _, cache_dir, bench, sha, want = sys.argv
        print(json.dumps(read_reference(Path(cache_dir), bench, sha, json.loads(want))))
        return
    vectors = {
        "generated_by": "scripts/identity_vectors.py from the reference measure.py",
        "identity": identity_vectors(),
        "plans": plan_vectors(),
        "no_result_notes": note_vectors(),
        "pending": pending_vectors(),
        "baseline_reads": baseline_read_vectors(),
        "python_written_cache": python_written(),
    }
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps(vectors, indent=1) + "\n")
    print(f"wrote {OUT}: {len(vectors['identity'])} identities, {len(vectors['plans'])} plans, "
          f"{len(vectors['baseline_reads'])} cache reads")


if __name__ == "__main__":
    main()
