"""Precision and recall of the code map's Go value references (PRODUCT.md §12: `code refs`,
`code impact` on a package-level var, const or function passed as a value), with go/types as the
oracle, on the Go standard library.

The oracle (`_data/goracle/main.go`, built here with the machine's `go`) type-checks each package
(its Linux build files, from source) and prints every read of a package-level var, const or
function of the same package that is not a call and not a selector (`file, line, col, name,
defining file`). The same package folders, copied with their test files and every build variant
(as a repository holds them), are indexed from scratch; each oracle read is then:
right (the map resolves it to the oracle's defining file), wrong target, unresolved (a name two
build-variant files define, by design), or missed. Extra: `use` references the oracle does not
list (mostly type names read as values, `(*T)(x)`, which go/types counts as type uses).

Needs Go (>= 1.19) and its standard library source: on Debian, `apt-get install golang-1.19-go
golang-1.19-src`; without them it says so and exits 0. Installs nothing.

Run: python benchmarks/bench_refs_go.py [--packages 150] [--goroot /usr/lib/go-1.19]
"""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ORACLE = Path(__file__).parent / "_data" / "goracle"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--packages", type=int, default=150)
    parser.add_argument("--goroot", type=Path, default=None)
    args = parser.parse_args()
    go = shutil.which("go") or next(
        (str(p) for p in sorted(Path("/usr/lib").glob("go-*/bin/go"), reverse=True)), None
    )
    if go is None:
        print("skipped: no Go toolchain (apt-get install golang-1.19-go golang-1.19-src)")
        return
    goroot = args.goroot or Path(go).resolve().parent.parent
    src = goroot / "src"
    if not (src / "strings" / "strings.go").is_file():
        print(f"skipped: no standard library source under {src} (apt-get install golang-1.19-src)")
        return
    from orkestra.codemap import api

    work = Path(tempfile.mkdtemp(prefix="bench-refs-go-"))
    env = {**os.environ, "GOROOT": str(goroot), "GOCACHE": str(work / "gocache"),
           "GOFLAGS": "-mod=mod", "GO111MODULE": "on"}  # fmt: skip
    try:
        oracle = work / "oracle"
        subprocess.run([go, "build", "-o", str(oracle), "."], cwd=ORACLE, env=env, check=True)
        listed = subprocess.run([go, "list", "std"], cwd=src, env=env, check=True,
                                capture_output=True, text=True).stdout.split()  # fmt: skip
        dirs = [d for d in listed if not d.startswith(("vendor/", "cmd/")) and "internal" not in d]
        dirs = dirs[: args.packages]
        tree = work / "tree"
        for d in dirs:
            shutil.copytree(src / d, tree / d, ignore=shutil.ignore_patterns("testdata"),
                            dirs_exist_ok=True)  # fmt: skip
            for sub in (tree / d).iterdir():  # one package per folder: sub-packages are listed
                if sub.is_dir() and d + "/" + sub.name not in dirs:
                    shutil.rmtree(sub)
        out = subprocess.run([str(oracle), str(src), *dirs], env=env, check=True,
                             capture_output=True, text=True).stdout  # fmt: skip
        gold = {}
        for line in out.splitlines():
            path, row, col, name, defined = line.split("\t")
            gold[(path, int(row), int(col))] = (name, defined)
        checked = {key[0] for key in gold}
        started = time.perf_counter()
        api.index(tree, full=True)
        took = time.perf_counter() - started
        conn = sqlite3.connect(tree / ".orkestra" / "code.sqlite")
        rows = conn.execute(
            "SELECT f.path, r.line, r.col, r.name, tf.path, r.kind FROM refs r "
            "JOIN files f ON f.id = r.file_id LEFT JOIN symbols s ON s.id = r.target "
            "LEFT JOIN files tf ON tf.id = s.file_id WHERE r.member = 0 AND f.language = 'go'"
        ).fetchall()
        files = conn.execute("SELECT COUNT(*) FROM files WHERE language = 'go'").fetchone()[0]
        conn.close()
        ours = {(p, r, c): (n, t, k) for p, r, c, n, t, k in rows}
        verdict: Counter[str] = Counter()
        wrong, unresolved = [], Counter()
        for key, (name, defined) in gold.items():
            got = ours.get(key)
            if got is None:
                verdict["missed"] += 1
            elif got[1] is None:
                verdict["unresolved"] += 1
                unresolved[defined.rsplit("/", 1)[0]] += 1
            elif got[1] == defined:
                verdict["right"] += 1
            else:
                verdict["wrong target"] += 1
                wrong.append((key, name, got[1], defined))
        extra = [k for k, (_n, _t, kind) in ours.items() if kind == "use" and k[0] in checked
                 and k not in gold]  # fmt: skip
        total = len(gold)
        resolved = verdict["right"] + verdict["wrong target"]
        print(f"Go standard library: {len(dirs)} packages, {files} Go files indexed "
              f"in {took:.1f} s; oracle: {len(checked)} files, {total} package-level reads")  # fmt: skip
        for label in ("right", "wrong target", "unresolved", "missed"):
            print(f"  {label:14} {verdict[label]:7}  {100 * verdict[label] / max(total, 1):5.1f}%")
        print(f"  precision of resolved reads  {100 * verdict['right'] / max(resolved, 1):.2f}%")
        print(f"  extra use references         {len(extra)}")
        print(f"  unresolved by package: {unresolved.most_common(6)}")
        for item in wrong[:10]:
            print("  WRONG", item)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
