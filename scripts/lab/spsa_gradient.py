#!/usr/bin/env python3
"""The gradient an SPSA log has measured so far, parameter by parameter.

For each iteration of a `janggun spsa` log, the pair result (plus engine's
points minus the minus engine's) times the sign of the parameter's
perturbation is one sample of that parameter's gradient; their mean over the
run, its standard error and z = mean / error say whether a parameter has a
signal or only noise (with 14 parameters, |z| near 2 turns up by chance).

    scripts/lab/spsa_gradient.py target/sprt/spsa/<commit>-<N>.log
"""
import math
import re
import sys


def main(path):
    with open(path) as f:
        header = f.readline()
        rows = [l for l in f if l.startswith("iter=")]
    names = re.search(r"params=(\S+)", header).group(1).split(",")
    samples = {n: [] for n in names}
    for row in rows:
        result = int(re.search(r"result=([+-]?\d+)", row).group(1))
        plus = [float(x) for x in re.search(r"plus=(\S+)", row).group(1).split(",")]
        minus = [float(x) for x in re.search(r"minus=(\S+)", row).group(1).split(",")]
        for name, p, m in zip(names, plus, minus):
            samples[name].append(result * ((p > m) - (p < m)))
    print(f"{len(rows)} iterations")
    if len(rows) < 2:
        return
    for name in names:
        v = samples[name]
        mean = sum(v) / len(v)
        sd = math.sqrt(sum((x - mean) ** 2 for x in v) / (len(v) - 1))
        se = sd / math.sqrt(len(v))
        z = mean / se if se > 0 else 0.0
        print(f"{name:16s} gradient {mean:+.3f} +/- {se:.3f}  z {z:+.2f}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
