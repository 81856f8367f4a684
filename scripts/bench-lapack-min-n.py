#!/usr/bin/env python3
"""Where calls through libgrain_lapack start to pay: dpotrf, dgetrf and dgemm (through
scipy.linalg) at several orders n, in a process with grain interposed and every call
through it (GRAIN_LAPACK_MIN_N=0) and in one without; the median of ROUNDS timed calls
each (after one untimed), the ratio system time / grain time per n. GRAIN_LAPACK_MIN_N's
default is the order from which grain is not slower.

    /usr/bin/python3 scripts/bench-lapack-min-n.py build/libgrain_lapack.so [ROUNDS] [N,N,...]
"""
import json
import os
import subprocess
import sys
import time

import numpy as np


def child(sizes, rounds):
    import scipy.linalg as la
    import scipy.linalg.blas as blas

    rng = np.random.default_rng(1)
    out = {}
    for n in sizes:
        a = np.asfortranarray(rng.standard_normal((n, n)))
        spd = np.asfortranarray(a @ a.T + n * np.eye(n))
        calls = {
            "dpotrf": lambda: la.cho_factor(spd, lower=True, overwrite_a=False),
            "dgetrf": lambda: la.lu_factor(a, overwrite_a=False),
            "dgemm": lambda: blas.dgemm(1.0, a, a),
        }
        for name, call in calls.items():
            call()
            times = []
            for _ in range(rounds):
                t = time.perf_counter()
                call()
                times.append(time.perf_counter() - t)
            out[f"{name} {n}"] = float(np.median(times))
    return out


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        print(json.dumps(child([int(x) for x in sys.argv[2].split(",")], int(sys.argv[3]))))
        return
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    lib = os.path.abspath(sys.argv[1])
    rounds = sys.argv[2] if len(sys.argv) > 2 else "5"
    sizes = sys.argv[3] if len(sys.argv) > 3 else "256,512,768,1024,1536,2048"
    runs = {}
    for who, env in (("system", {}), ("grain", {"LD_PRELOAD": lib, "GRAIN_LAPACK_MIN_N": "0"})):
        e = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
        e.update(env)
        p = subprocess.run([sys.executable, __file__, "--child", sizes, rounds], env=e, capture_output=True, text=True,
                           check=True)
        runs[who] = json.loads(p.stdout)
    print("call      n    system s    grain s   system/grain")
    for key in runs["system"]:
        s, g = runs["system"][key], runs["grain"][key]
        name, n = key.split()
        print(f"{name:7s} {n:>5s}  {s:9.4f}  {g:9.4f}   {s / g:6.3f}")


if __name__ == "__main__":
    main()
