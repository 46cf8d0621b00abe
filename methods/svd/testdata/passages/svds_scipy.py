"""scipy's reference singular values for the repeated-passage CA table of TestKrylovPassagesScipy.

The table (methods/svd/krylov_test.go: passagesTable(clusteredPassages(), 10)) is written by the
test itself, in the CSR layout of methods/ca/testdata/peers/svds_rspectra.R:
    KCALAB_PASSAGES_TABLE=/tmp/passages.bin go test ./methods/svd -run TestKrylovPassagesScipy
    /usr/bin/python3 methods/svd/testdata/passages/svds_scipy.py /tmp/passages.bin 30 \
        > methods/svd/testdata/passages/scipy.json
As in svds_scipy.py of package ca, the CA triplets are those of the uncentred
M = D(r)^-1/2 (N/n) D(c)^-1/2 after its trivial first triplet (σ = 1), so K+1 are asked for.
svds is ARPACK at its default tolerance (machine precision); numpy's dense SVD of M, which the
table's size allows, is written beside it as a second opinion.
"""
import hashlib
import json
import sys

import numpy as np
import scipy
import scipy.sparse as sp
from scipy.sparse.linalg import svds


def main():
    path, k = sys.argv[1], int(sys.argv[2])
    raw = open(path, "rb").read()
    with open(path, "rb") as f:
        rows, cols, nnz = (int(v) for v in np.fromfile(f, dtype="<f8", count=3))
        indptr = np.fromfile(f, dtype="<f8", count=rows + 1).astype(np.int64)
        idx = np.fromfile(f, dtype="<i4", count=nnz)
        x = np.fromfile(f, dtype="<f8", count=nnz)
    n = sp.csr_matrix((x, idx, indptr), shape=(rows, cols))
    total = x.sum()
    r = np.asarray(n.sum(axis=1)).ravel() / total
    c = np.asarray(n.sum(axis=0)).ravel() / total
    m = (sp.diags(1 / np.sqrt(r)) @ (n / total) @ sp.diags(1 / np.sqrt(c))).tocsr()
    _, s, _ = svds(m, k=k + 1, random_state=np.random.default_rng(1))
    d = np.sort(s)[::-1][1:]
    full = np.linalg.svd(m.toarray(), compute_uv=False)
    json.dump(
        {
            "table": {"rows": rows, "cols": cols, "nnz": nnz, "sha256": hashlib.sha256(raw).hexdigest()},
            "k": k,
            "scipy": scipy.__version__,
            "numpy": np.__version__,
            "sigma_svds": [float(v) for v in d[:k]],
            "sigma_dense": [float(v) for v in full[1 : k + 1]],
            "sigma_k_plus_1_dense": float(full[k + 1]),
        },
        sys.stdout,
        indent=1,
    )
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
