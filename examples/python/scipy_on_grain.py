#!/usr/bin/env python3
"""scipy on grain, unchanged: scipy.linalg's cho_factor, lu_factor and solve on an n x n
matrix, in a process with libgrain_lapack interposed (LD_PRELOAD) and in one without,
the same matrices in both; their results compared and their times side by side.

    python3 examples/python/scipy_on_grain.py build/libgrain_lapack.so [n]

Any program does the same: LD_PRELOAD=/path/to/libgrain_lapack.so python3 program.py.
The runtime's start-up (the first call through grain starts it) is reported apart from
the calls: each process runs every call once untimed first.
"""
import json
import os
import re
import subprocess
import sys
import time

import numpy as np


def run_calls(n):
    """The calls, in the current process: results (for the comparison) and times."""
    import scipy.linalg as la

    rng = np.random.default_rng(2026)
    a = rng.standard_normal((n, n))
    spd = a @ a.T + n * np.eye(n)
    b = rng.standard_normal((n, 1))
    x = rng.standard_normal(n)  # the residuals' vector
    eps = np.finfo(float).eps

    calls = {
        "cho_factor": lambda: la.cho_factor(spd, lower=True),
        "lu_factor": lambda: la.lu_factor(a),
        "solve": lambda: la.solve(a, b),
    }
    results = {}
    warmup = {}
    for name, call in calls.items():
        t = time.perf_counter()
        call()  # untimed: starts grain's runtime on the first call, warms the caches
        warmup[name] = time.perf_counter() - t
        t = time.perf_counter()
        out = call()
        results[name] = {"seconds": time.perf_counter() - t}
        if name == "cho_factor":
            l = np.tril(out[0])
            err = np.linalg.norm(spd @ x - l @ (l.T @ x), 1)
            results[name]["residual"] = err / (np.linalg.norm(spd, 1) * np.linalg.norm(x, 1) * n * eps)
        elif name == "lu_factor":
            lu, piv = out
            l, u = np.tril(lu, -1) + np.eye(n), np.triu(lu)
            pa = a.copy()
            for i, p in enumerate(piv):  # LAPACK's interchanges, in order
                pa[[i, p]] = pa[[p, i]]
            err = np.linalg.norm(pa @ x - l @ (u @ x), 1)
            results[name]["residual"] = err / (np.linalg.norm(a, 1) * np.linalg.norm(x, 1) * n * eps)
            results[name]["pivots"] = piv.tolist()
            # |L(r, i)| close to 1 below a pivot: a near-tie, where the order may differ.
            results[name]["near_ties"] = [bool(np.max(np.abs(l[i + 1:, i]), initial=0) > 1 - 1e-8) for i in range(n)]
        else:
            err = np.linalg.norm(a @ out - b, np.inf)
            results[name]["residual"] = err / (np.linalg.norm(a, np.inf) * np.linalg.norm(out, np.inf) * n * eps)
    return {"results": results, "warmup": warmup}


def child(lib, n):
    """Runs this script's calls in a new process, with grain interposed if lib is set."""
    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    if lib:
        env["LD_PRELOAD"] = lib
        env["GRAIN_LAPACK_TRACE"] = "1"
    p = subprocess.run([sys.executable, __file__, "--child", str(n)], env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"the {'grain' if lib else 'system'} run failed:\n{p.stderr}")
    out = json.loads(p.stdout)
    m = re.search(r"runtime started in ([0-9.]+) s", p.stderr)
    out["startup"] = float(m.group(1)) if m else None
    out["trace"] = [line for line in p.stderr.splitlines() if line.startswith("grain_lapack")]
    return out


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "--child":
        print(json.dumps(run_calls(int(sys.argv[2]))))
        return
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    lib = os.path.abspath(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 8192
    system, grain = child(None, n), child(lib, n)
    print(f"n = {n}; grain's runtime started in {grain['startup']} s (its first call through grain)")
    print("call        system s   grain s   grain/system speed   residual: system  grain")
    ok = True
    for name in system["results"]:
        s, g = system["results"][name], grain["results"][name]
        print(f"{name:11s} {s['seconds']:8.3f}  {g['seconds']:8.3f}   {s['seconds'] / g['seconds']:8.3f}"
              f"             {s['residual']:8.2e}  {g['residual']:8.2e}")
        ok = ok and g["residual"] < 60 and s["residual"] < 60
    sp, gp = system["results"]["lu_factor"]["pivots"], grain["results"]["lu_factor"]["pivots"]
    first = next((i for i, (x, y) in enumerate(zip(sp, gp)) if x != y), None)
    if first is None:
        print("lu_factor: the same pivots")
    else:
        tie = system["results"]["lu_factor"]["near_ties"][first]
        print(f"lu_factor: pivots differ from step {first} ({'a near-tie' if tie else 'NOT a near-tie'})")
        ok = ok and tie
    print("\n".join(grain["trace"]))
    # The factorizations really went through grain (scipy called the interposed symbols).
    for symbol in ("dpotrf_", "dgetrf_"):
        through = [line for line in grain["trace"] if re.match(rf"grain_lapack: {symbol}: [1-9][0-9]* through grain", line)]
        if not through:
            print(f"no {symbol} call went through grain")
            ok = False
    print("PASSED" if ok else "FAILED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
