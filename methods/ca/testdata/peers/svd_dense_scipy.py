"""Exact truncated SVD of a CA table by dense LAPACK through scipy: the dense peer of krylov at large k.

Called by BenchmarkSVDPeers (bench_peers_test.go) on a table it writes:
    python3 svd_dense_scipy.py TABLE.bin K [eigh|gesdd]
TABLE.bin is described in svds_rspectra.R. The CA matrix S = D(r)^-1/2 (N/n - r c^T) D(c)^-1/2 is
built dense (rows x cols doubles), then
    eigh   G = S^T S by dsyrk, its K largest eigenpairs by dsyevr (scipy.linalg.eigh with
           subset_by_index, driver evr: tridiagonalisation, then only the wanted eigenvectors),
           sigma = sqrt(lambda), U = S V / sigma. Memory: S, G and V (K columns). The squared
           matrix costs nothing in the sigma that matter here: an eigenvalue's error is about
           eps*sigma_1^2, so sigma_k's is eps*sigma_1^2/(2 sigma_k), far below 1e-8*sigma_1.
    gesdd  the thin SVD of S by dgesdd (scipy.linalg.svd, numpy's and LAPACK's divide and
           conquer): every triplet; S, U, V^T and a workspace of several S's.
Both use the BLAS numpy links (OpenBLAS on Debian; threads as OPENBLAS_NUM_THREADS, all cores
unset). Prints one line key=value; the timed part starts after the table is read and includes
building S; peak RSS is reset just before it. After it, untimed, residual is the largest
|S^T u - sigma v| over the K triplets relative to sigma_1. With PEER_SIGMA_OUT set, the K
singular values are written to that file, one per line.
"""
import os
import sys
import time

import numpy as np
import scipy.linalg as la
from scipy.linalg import blas


def dense_ca(rows, cols, indptr, idx, x):
    """S = D(r)^-1/2 (N/n) D(c)^-1/2 - sqrt(r) sqrt(c)^T, dense, in Fortran order so that LAPACK
    works on it without a copy."""
    total = x.sum()
    r = np.zeros(rows)
    np.add.at(r, np.repeat(np.arange(rows), np.diff(indptr)), x)
    c = np.bincount(idx, weights=x, minlength=cols)
    r /= total
    c /= total
    sr, sc = np.sqrt(r), np.sqrt(c)
    s_mat = np.empty((rows, cols), order="F")
    np.multiply(-sr[:, None], sc[None, :], out=s_mat)
    rr = np.repeat(np.arange(rows), np.diff(indptr))
    s_mat[rr, idx] += x / total / (sr[rr] * sc[idx])
    return s_mat


def main():
    path, k = sys.argv[1], int(sys.argv[2])
    how = sys.argv[3] if len(sys.argv) > 3 else "eigh"
    if how not in ("eigh", "gesdd"):
        sys.exit(f"svd_dense_scipy.py: method {how!r}: want eigh or gesdd")
    with open(path, "rb") as f:
        rows, cols, nnz = (int(v) for v in np.fromfile(f, dtype="<f8", count=3))
        indptr = np.fromfile(f, dtype="<f8", count=rows + 1).astype(np.int64)
        idx = np.fromfile(f, dtype="<i4", count=nnz)
        x = np.fromfile(f, dtype="<f8", count=nnz)
    if not 0 < k < min(rows, cols):
        sys.exit(f"svd_dense_scipy.py: K = {k}: want 0 < K < {min(rows, cols)}")
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
    t0, c0 = time.perf_counter(), time.process_time()
    s_mat = dense_ca(rows, cols, indptr, idx, x)
    if how == "eigh":
        # G = S^T S (upper triangle), then the k largest eigenpairs.
        g = blas.dsyrk(1.0, s_mat, trans=1, lower=0)
        n = g.shape[0]
        lam, v = la.eigh(g, lower=False, subset_by_index=[n - k, n - 1], driver="evr",
                         overwrite_a=True, check_finite=False)
        del g
        order = np.argsort(lam)[::-1]
        lam, v = lam[order], v[:, order]
        sig = np.sqrt(np.maximum(lam, 0))
        u = (s_mat @ v) / sig
    else:
        u, sig, vt = la.svd(s_mat, full_matrices=False, lapack_driver="gesdd", overwrite_a=True,
                            check_finite=False)
        sig, u, v = sig[:k], u[:, :k], vt[:k].T
        del vt
    el, cpu = time.perf_counter() - t0, time.process_time() - c0
    hwm = 0.0
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                hwm = int(line.split()[1]) / 1024
    # Untimed: the largest residual |S^T u - sigma v| over the k triplets, relative to sigma_1, the
    # measure krylov's svd.tol bounds (S v = sigma u holds by construction for eigh).
    if how == "gesdd":
        s_mat = dense_ca(rows, cols, indptr, idx, x)  # dgesdd overwrote it
    res = 0.0
    for j0 in range(0, k, 512):
        j1 = min(k, j0 + 512)
        d = s_mat.T @ u[:, j0:j1] - v[:, j0:j1] * sig[j0:j1]
        res = max(res, float(np.sqrt((d * d).sum(axis=0)).max()))
    res /= sig[0]
    del u, v
    if os.environ.get("PEER_SIGMA_OUT"):
        np.savetxt(os.environ["PEER_SIGMA_OUT"], sig[:k], fmt="%.17g")
    print(f"peer=scipy-{how} k={k} seconds={el:.2f} cpu_seconds={cpu:.2f} peak_rss_mb={hwm:.1f} "
          f"products=0 residual={res:.3g} sigma1_5={','.join(f'{s:.5f}' for s in sig[:5])} sigma_k={sig[k - 1]:.6g}")


if __name__ == "__main__":
    main()
