#!/usr/bin/python3
"""Reference for harness/builtin's ppmi-svd method (method_ppmisvd.go).

Writes corpus.txt (a small corpus, generated from a fixed seed), pairs.txt
(word pairs to score, so the trial runs end to end) and reference.json: the
PPMI-SVD matrix of Levy, Goldberg & Dagan (2015) computed here with numpy and
scipy from the formula, not from the Go code:

  - vocabulary: words seen at least MIN_COUNT times; the others stay in place
    as placeholders that are neither words nor contexts (hyperwords without
    --oov);
  - counts N[w, c]: c within WINDOW tokens of w on either side;
  - PPMI with context distribution smoothing 0.75:
    max(0, log(N_wc * sum_c C_c^0.75 / (R_w * C_c^0.75))) for N_wc > 0, else 0;
  - SVD (scipy.linalg.svd, dense), rank K: W = U_K S_K^0.5, C = V_K S_K^0.5;
  - the vectors W + C, compared by cosine.

Run from this directory: /usr/bin/python3 reference.py (numpy 1.24, scipy 1.10
from Debian's python3-numpy and python3-scipy made the committed files).
"""
import json
import random
from collections import Counter

import numpy as np
import scipy
import scipy.linalg

MIN_COUNT, WINDOW, CDS, K, EIG = 2, 2, 0.75, 3, 0.5


def make_corpus():
    rnd = random.Random(20151)
    topics = [
        ["cat", "dog", "pet", "fur", "paw"],
        ["car", "road", "wheel", "drive", "fuel"],
        ["sea", "ship", "wave", "sail", "port"],
    ]
    glue = ["the", "a", "and", "of"]
    rare = iter(f"rare{i}" for i in range(1000))
    words = []
    for _ in range(120):
        topic = rnd.choice(topics)
        for _ in range(rnd.randint(4, 7)):
            r = rnd.random()
            if r < 0.25:
                words.append(rnd.choice(glue))
            elif r < 0.3:
                words.append(next(rare))  # seen once: a placeholder
            elif r < 0.35:
                words.append(rnd.choice(rnd.choice(topics)))
            else:
                words.append(rnd.choice(topic))
    return words


def main():
    tokens = make_corpus()
    with open("corpus.txt", "w") as f:
        for i in range(0, len(tokens), 20):
            f.write(" ".join(tokens[i:i + 20]) + "\n")
    with open("pairs.txt", "w") as f:
        for a, b, s in [("cat", "dog", 9), ("car", "road", 8), ("sea", "ship", 9),
                        ("cat", "car", 1), ("dog", "wave", 1), ("fuel", "drive", 7)]:
            f.write(f"{a}\t{b}\t{s}\n")

    counts = Counter(tokens)
    vocab = sorted(w for w, c in counts.items() if c >= MIN_COUNT)
    index = {w: i for i, w in enumerate(vocab)}
    ids = [index.get(t, -1) for t in tokens]
    n = np.zeros((len(vocab), len(vocab)))
    for i, w in enumerate(ids):
        if w < 0:
            continue
        for j in range(max(0, i - WINDOW), min(len(ids), i + WINDOW + 1)):
            if j != i and ids[j] >= 0:
                n[w, ids[j]] += 1

    rows = n.sum(axis=1)
    cols = n.sum(axis=0) ** CDS
    ppmi = np.zeros_like(n)
    nz = n > 0
    ratio = n * cols.sum() / np.outer(rows, cols)
    ppmi[nz] = np.maximum(0, np.log(ratio[nz]))

    u, s, vt = scipy.linalg.svd(ppmi)
    w = u[:, :K] * s[:K] ** EIG
    c = vt[:K].T * s[:K] ** EIG
    m = w + c
    m = m / np.linalg.norm(m, axis=1, keepdims=True)
    cos = m @ m.T

    ref = {
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "min_count": MIN_COUNT, "window": WINDOW, "cds": CDS, "rank": K, "eig": EIG,
        "words": vocab,
        "counts": n.tolist(),
        "ppmi": ppmi.tolist(),
        "singular_values": s[:K + 1].tolist(),
        "cosine": cos.tolist(),
    }
    with open("reference.json", "w") as f:
        json.dump(ref, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
