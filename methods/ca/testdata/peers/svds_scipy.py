"""Exact truncated SVD of a CA table by scipy.sparse.linalg.svds (ARPACK), a peer of issue 13.

Called by BenchmarkSVDPeers (bench_peers_test.go) on a table it writes:
    python3 svds_scipy.py TABLE.bin K
TABLE.bin is described in svds_rspectra.R. As there, the CA triplets are those of the sparse,
uncentred M = D(r)^-1/2 (N/n) D(c)^-1/2 after its trivial first triplet, so K+1 are asked for.
Prints one line key=value; the timed part is svds alone, peak RSS is reset just before it. With
PEER_SIGMA_OUT set, the K singular values are also written there, one per line, for the benchmark to
compare with krylov's.
"""
import os
import sys
import time

import numpy as np
import scipy.sparse as sp
from scipy.sparse.linalg import LinearOperator, svds


def main():
    path, k = sys.argv[1], int(sys.argv[2])
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
    mt = m.T.tocsr()
    count = [0]

    def mv(v):
        count[0] += 1
        return m @ v

    def rmv(v):
        count[0] += 1
        return mt @ v

    op = LinearOperator(m.shape, matvec=mv, rmatvec=rmv, dtype=np.float64)
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
    t0, c0 = time.perf_counter(), time.process_time()
    _, s, _ = svds(op, k=k + 1)
    el, cpu = time.perf_counter() - t0, time.process_time() - c0
    hwm = 0.0
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                hwm = int(line.split()[1]) / 1024
    d = np.sort(s)[::-1][1:]
    if os.environ.get("PEER_SIGMA_OUT"):
        np.savetxt(os.environ["PEER_SIGMA_OUT"], d, fmt="%.17g")
    print(f"peer=scipy k={k} seconds={el:.2f} cpu_seconds={cpu:.2f} peak_rss_mb={hwm:.1f} "
          f"products={count[0]} sigma1_5={','.join(f'{v:.5f}' for v in d[:5])} sigma_k={d[k - 1]:.6g}")


if __name__ == "__main__":
    main()
