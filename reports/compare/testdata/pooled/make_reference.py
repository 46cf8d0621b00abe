#!/usr/bin/env python3
"""Independent reference for kcalab/reports/compare's verdicts across sets.

Writes fixture.json (two rows' records: row A a trainer over 3 seeds, row B
one trial, six test parts, 200 bootstrap replicates each in the records'
byte-quantised encoding) and expected.json (per set: the difference of the
means, its 95% interval over the pairs and the seeds, its p-value and the
Holm-adjusted one; pooled over the sets: the same), computed here with
numpy and scipy from the formulas in the package docs, not from Go.

    python3 make_reference.py     # numpy 1.24, scipy 1.10 (Debian 12)
"""
import base64
import json
import struct

import numpy as np
from scipy import optimize, stats

rng = np.random.default_rng(20261128)
B = 200
SETS = ["sim", "rel", "men", "mturk", "rare", "s999"]
KEY = "spearman.cosine.zero.{}@test"


def encode(xs, center):
    most = float(np.max(np.abs(xs - center)))
    step = np.float32(most / 127)
    q = np.clip(np.round((xs - center) / np.float64(step)), -127, 127).astype(np.int8)
    return base64.b64encode(struct.pack("<f", step) + q.tobytes()).decode()


def decode(s, center):
    raw = base64.b64decode(s)
    step = np.float64(struct.unpack("<f", raw[:4])[0])
    q = np.frombuffer(raw[4:], dtype=np.int8).astype(np.float64)
    return center + q * step


shared = {s: rng.normal(0, 0.03, B) for s in SETS}  # the pairs' effect, shared by rows


def trial(centres, seed_sd):
    seed_shift = rng.normal(0, seed_sd)
    metrics, scores = {}, {}
    for s in SETS:
        v = centres[s] + seed_shift + rng.normal(0, 0.004)
        reps = v + shared[s] + rng.normal(0, 0.01, B)
        metrics[KEY.format(s)] = v
        scores[KEY.format(s)] = encode(reps, v)
    return {"metrics": metrics, "bootstrap": {"B": B, "scores": scores}}


centre_a = dict(zip(SETS, [0.45, 0.40, 0.50, 0.52, 0.20, 0.18]))
centre_b = dict(zip(SETS, [0.43, 0.42, 0.44, 0.50, 0.24, 0.17]))
rows = {"A": [trial(centre_a, 0.01) for _ in range(3)], "B": [trial(centre_b, 0.0)]}


def estimate(members, keys):
    """Value, replicates (mean over seeds), seed variance of the mean, df."""
    vals, lists = [], []
    for m in members:
        vs = [m["metrics"][k] for k in keys]
        reps = [decode(m["bootstrap"]["scores"][k], m["metrics"][k]) for k in keys]
        vals.append(np.mean(vs))
        lists.append(np.mean(reps, axis=0))
    vals = np.array(vals)
    n = len(vals)
    seed_var = vals.var(ddof=1) / n if n > 1 else 0.0
    return vals.mean(), np.mean(lists, axis=0), seed_var, n - 1


def half(sd, seed_var, df, alpha):
    z = 1.96 if alpha == 0.05 else stats.norm.ppf(1 - alpha / 2)
    h = (z * sd) ** 2
    if seed_var > 0 and df > 0:
        h += stats.t.ppf(1 - alpha / 2, df) ** 2 * seed_var
    return np.sqrt(h)


def diff(keys):
    va, ra, sva, dfa = estimate(rows["A"], keys)
    vb, rb, svb, dfb = estimate(rows["B"], keys)
    d = va - vb
    sd = np.std(ra - rb, ddof=1)
    v = sva + svb
    den = (sva**2 / dfa if dfa > 0 else 0) + (svb**2 / dfb if dfb > 0 else 0)
    df = max(1, int(np.floor(v * v / den))) if v > 0 else 0
    h = half(sd, v, df, 0.05)
    if abs(d) >= half(sd, v, df, 1e-300):
        p = 0.0
    else:
        p = optimize.brentq(lambda a: half(sd, v, df, a) - abs(d), 1e-300, 1 - 1e-12, xtol=1e-15, rtol=1e-12)
    return {"d": d, "lo": d - h, "hi": d + h, "p": p, "df": df}


def holm(ps):
    order = np.argsort(ps, kind="stable")
    m = len(ps)
    adj = np.empty(m)
    running = 0.0
    for j, i in enumerate(order):
        running = max(running, min(1.0, (m - j) * ps[i]))
        adj[i] = running
    return adj


per_set = [diff([KEY.format(s)]) for s in SETS]
adj = holm(np.array([x["p"] for x in per_set]))
for x, a in zip(per_set, adj):
    x["holm"] = a
pooled = diff([KEY.format(s) for s in SETS])

with open("fixture.json", "w") as f:
    json.dump({"sets": SETS, "key": KEY, "rows": rows}, f, indent=1)
with open("expected.json", "w") as f:
    json.dump({"per_set": per_set, "pooled": pooled}, f, indent=1)
