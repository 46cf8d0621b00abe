#!/usr/bin/env python3
"""Reference for methods/retrofit: Faruqui et al.'s (2015) retrofitting update
computed with numpy, independently of the Go code, on a small fixture.

    /usr/bin/python3 make_reference.py > reference.json   (numpy 1.24)

For each case it writes the vectors after the given number of passes of

    q_i <- (alpha * qhat_i + sum_j beta_ij q_j) / (alpha + sum_j beta_ij),
    beta_ij = beta * w_ij / sum_k w_ik,

updating the words with neighbours in increasing row order, in place
(Gauss-Seidel), from qhat (scaled to unit length by sqrt(|q|^2 + 1e-6) when
normalize is set, as the reference tool does). The neighbour weights come
from a dense symmetric matrix W (an edge given twice counts twice; self
edges and zero weights count not at all). For cases with "solve", it also
writes the fixed point the passes converge to, the solution of the linear
system (alpha + beta) q_i - sum_j beta_ij q_j = alpha qhat_i (rows with
neighbours; the others keep qhat_i), by numpy.linalg.solve.
"""
import json
import sys

import numpy as np

rng = np.random.default_rng(20150601)
n, d = 9, 5
qhat = rng.normal(size=(n, d)) * rng.uniform(0.2, 3.0, size=(n, 1))

# (i, j, w): a repeated edge (0, 1), a self edge (2, 2), a zero weight
# (3, 4), word 8 without neighbours, a chain and a triangle.
edges = [
    (0, 1, 0.9), (1, 0, 0.5), (0, 2, 0.25), (2, 2, 1.0), (3, 4, 0.0),
    (3, 5, 0.7), (4, 5, 1.0), (5, 6, 0.1), (6, 7, 0.8), (7, 3, 0.6),
    (1, 4, 0.35),
]


def weights(edges, score):
    W = np.zeros((n, n))
    for i, j, w in edges:
        w = w if score else (1.0 if w > 0 else 0.0)
        if i == j or w == 0:
            continue
        W[i, j] += w
        W[j, i] += w
    return W


def start(normalize):
    q = qhat.copy()
    if normalize:
        q = q / np.sqrt((q ** 2).sum(axis=1, keepdims=True) + 1e-6)
    return q


def passes(alpha, beta, iters, normalize, score):
    W = weights(edges, score)
    deg = W.sum(axis=1)
    q0 = start(normalize)
    q = q0.copy()
    for _ in range(iters):
        for i in range(n):
            if deg[i] == 0:
                continue
            b = beta * W[i] / deg[i]
            q[i] = (alpha * q0[i] + b @ q) / (alpha + b.sum())
    return q


def solve(alpha, beta, normalize, score):
    W = weights(edges, score)
    deg = W.sum(axis=1)
    q0 = start(normalize)
    A = np.eye(n)
    rhs = q0.copy()
    for i in range(n):
        if deg[i] == 0:
            continue
        A[i] = -beta * W[i] / deg[i]
        A[i, i] += alpha + beta
        rhs[i] = alpha * q0[i]
    return np.linalg.solve(A, rhs)


cases = [
    # The paper's update: alpha = beta = 1, unweighted edges, 10 passes,
    # unit-length input.
    dict(name="faruqui", alpha=1.0, beta=1.0, iterations=10, normalize=True, score=False),
    dict(name="weighted", alpha=0.5, beta=2.0, iterations=3, normalize=False, score=True),
    dict(name="one-pass", alpha=2.0, beta=0.75, iterations=1, normalize=True, score=True),
    dict(name="no-pass", alpha=1.0, beta=1.0, iterations=0, normalize=True, score=True),
    dict(name="converged", alpha=1.0, beta=1.5, iterations=400, normalize=False, score=True, solve=True),
]
out = {"vectors": qhat.tolist(), "edges": [list(e) for e in edges], "cases": []}
for c in cases:
    r = dict(c)
    r["passes"] = passes(c["alpha"], c["beta"], c["iterations"], c["normalize"], c["score"]).tolist()
    if c.get("solve"):
        r["fixed_point"] = solve(c["alpha"], c["beta"], c["normalize"], c["score"]).tolist()
    out["cases"].append(r)
json.dump(out, sys.stdout, indent=1)
sys.stdout.write("\n")
