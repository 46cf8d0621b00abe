"""Exact truncated SVD of a CA table by SLEPc (slepc4py), run on MPI ranks: a peer of krylov.

Called by BenchmarkSVDPeers (bench_peers_test.go) on a table it writes:
    mpiexec -n 2 python3 svds_slepc.py TABLE.bin K [SOLVER]
TABLE.bin is described in svds_rspectra.R. As there, the CA triplets are those of the sparse,
uncentred M = D(r)^-1/2 (N/n) D(c)^-1/2 after its trivial first triplet (sigma = 1), so K+1 are
asked for. Each rank holds its share of M's rows (a PETSc AIJ matrix). SOLVER is one of
    trlanczos            thick-restart Lanczos bidiagonalisation, two-sided (the default)
    trlanczos-oneside    the same with one-sided reorthogonalisation
    lanczos              explicitly restarted Lanczos bidiagonalisation, one-sided
    cross                Krylov-Schur on M^T M applied as two products
    cross-explicit       Krylov-Schur on M^T M formed as a sparse matrix
all with SLEPc's default subspace dimensions and convergence when the residual is at most
5e-9 (SVD_CONV_ABS; the 2-norm of M is its trivial sigma = 1, so this is 5e-9·‖M‖, the bound
krylov's svd.tol = 1e-8 of the centred sigma_1 = 0.59 makes; SVD_CONV_NORM asks for a matrix
norm, which the cross solvers' implicit M^T M cannot compute, and gave trlanczos the same
products within 2 at k = 300). Prints one line key=value (rank 0): seconds is the solve's wall
time (the slowest rank), cpu_seconds and peak_rss_mb sum over the ranks (peak RSS reset just
before the solve), products counts the products with M and M^T (each column of a block
product counts one; for the cross solvers, a product with M^T M counts two). With PEER_SIGMA_OUT
set, rank 0 writes the K singular values to that file, one per line.
"""
import os
import sys
import time

import numpy as np
from petsc4py import PETSc
from slepc4py import SLEPc

TOL = 5e-9
SOLVERS = ("trlanczos", "trlanczos-oneside", "lanczos", "cross", "cross-explicit")


def local_matrix(path, comm):
    """Reads this rank's rows of M from the table (memory-mapped, so each rank reads its share)."""
    hdr = np.fromfile(path, dtype="<f8", count=3)
    rows, cols, nnz = (int(v) for v in hdr)
    base = 3 * 8
    indptr = np.memmap(path, dtype="<f8", mode="r", offset=base, shape=(rows + 1,)).astype(np.int64)
    base += (rows + 1) * 8
    idx = np.memmap(path, dtype="<i4", mode="r", offset=base, shape=(nnz,))
    base += nnz * 4
    x = np.memmap(path, dtype="<f8", mode="r", offset=base, shape=(nnz,))
    total = float(x.sum())
    rsum = np.add.reduceat(x, indptr[:-1]) if nnz else np.zeros(rows)
    rsum[indptr[:-1] == indptr[1:]] = 0
    csum = np.bincount(idx, weights=x, minlength=cols)
    r, c = rsum / total, csum / total
    rs = np.where(r > 0, 1 / np.sqrt(np.where(r > 0, r, 1)), 0)
    cs = np.where(c > 0, 1 / np.sqrt(np.where(c > 0, c, 1)), 0)
    size, rank = comm.getSize(), comm.getRank()
    lo, hi = rows * rank // size, rows * (rank + 1) // size
    p0, p1 = indptr[lo], indptr[hi]
    lidx = np.ascontiguousarray(idx[p0:p1], dtype=PETSc.IntType)
    lval = np.asarray(x[p0:p1], dtype=np.float64) / total * cs[lidx]
    lptr = (indptr[lo:hi + 1] - p0).astype(PETSc.IntType)
    lval *= np.repeat(rs[lo:hi], np.diff(lptr))
    m = PETSc.Mat().createAIJ(size=((hi - lo, rows), (PETSc.DECIDE, cols)), csr=(lptr, lidx, lval), comm=comm)
    m.assemble()
    return m


def reduce(comm, value, how):
    """The sum or maximum of one number per rank, through a PETSc vector (no mpi4py needed)."""
    v = PETSc.Vec().createMPI((1, PETSc.DECIDE), comm=comm)
    v.getArray()[0] = value
    out = v.sum() if how == "sum" else v.max()[1]
    v.destroy()
    return out


def product_count():
    """Products so far, from PETSc's event log (each block column counts one). SLEPc's SVD solvers
    form M^T explicitly, so products with it are MatMult events too."""
    n = 0
    for name in ("MatMult", "MatMultTranspose", "MatMultHermitianTr", "MatMultHermitianTranspose"):
        try:
            n += PETSc.Log.Event(name).getPerfInfo().get("count", 0)
        except Exception:  # the event does not exist in this PETSc
            pass
    return n


def main():
    path, k = sys.argv[1], int(sys.argv[2])
    solver = sys.argv[3] if len(sys.argv) > 3 else "trlanczos"
    if solver not in SOLVERS:
        sys.exit(f"svds_slepc.py: solver {solver!r}: want one of {', '.join(SOLVERS)}")
    comm = PETSc.COMM_WORLD
    PETSc.Log.begin()
    m = local_matrix(path, comm)
    svd = SLEPc.SVD().create(comm)
    op = m
    if solver == "cross-explicit":
        svd.setType(SLEPc.SVD.Type.CROSS)
        svd.setCrossExplicitMatrix(True)
    elif solver == "cross":
        svd.setType(SLEPc.SVD.Type.CROSS)
    elif solver == "lanczos":
        svd.setType(SLEPc.SVD.Type.LANCZOS)
        svd.setLanczosOneSide(True)
    else:
        svd.setType(SLEPc.SVD.Type.TRLANCZOS)
        svd.setTRLanczosOneSide(solver == "trlanczos-oneside")
    svd.setOperators(op)
    svd.setDimensions(nsv=k + 1)
    svd.setWhichSingularTriplets(SLEPc.SVD.Which.LARGEST)
    svd.setConvergenceTest(SLEPc.SVD.Conv.ABS)
    svd.setTolerances(tol=TOL, max_it=100000)
    svd.setFromOptions()
    svd.setUp()
    comm.barrier()
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass
    n0 = product_count()
    t0, c0 = time.perf_counter(), time.process_time()
    svd.solve()
    el, cpu = time.perf_counter() - t0, time.process_time() - c0
    products = product_count() - n0
    if solver.startswith("cross"):
        # One logged product with M^T M stands for one with M and one with M^T (the implicit
        # operator's inner products are nested in its own MatMult event, which PETSc logs once).
        products *= 2
    hwm = 0.0
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                hwm = int(line.split()[1]) / 1024
    el = reduce(comm, el, "max")
    cpu = reduce(comm, cpu, "sum")
    hwm = reduce(comm, hwm, "sum")
    nconv = svd.getConverged()
    if nconv < k + 1:
        sys.exit(f"svds_slepc.py: {solver}: {nconv} of {k + 1} triplets converged")
    s = np.sort(np.array([svd.getValue(i) for i in range(nconv)]))[::-1][1:k + 1]
    ncv, mpd = svd.getDimensions()[1:]
    if comm.getRank() == 0 and os.environ.get("PEER_SIGMA_OUT"):
        np.savetxt(os.environ["PEER_SIGMA_OUT"], s, fmt="%.17g")
    if comm.getRank() == 0:
        print(f"peer=slepc-{solver} k={k} seconds={el:.2f} cpu_seconds={cpu:.2f} peak_rss_mb={hwm:.1f} "
              f"products={products} sigma1_5={','.join(f'{v:.5f}' for v in s[:5])} sigma_k={s[k - 1]:.6g} "
              f"ranks={comm.getSize()} ncv={ncv} mpd={mpd} iterations={svd.getIterationNumber()} "
              f"slepc={'.'.join(str(v) for v in SLEPc.Sys.getVersion())}")


if __name__ == "__main__":
    main()
