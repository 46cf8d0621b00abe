# Exact truncated SVD of a CA table by R's RSpectra::svds, the fastest exact peer of issue 13.
# Called by BenchmarkSVDPeers (bench_peers_test.go) on a table it writes:
#   Rscript svds_rspectra.R TABLE.bin K
# TABLE.bin: 3 float64 (rows, cols, nnz), then indptr (rows+1 float64), column indices (nnz int32),
# counts (nnz float64), little-endian CSR. The CA triplets are those of the sparse, uncentred
# M = D(r)^-1/2 (N/n) D(c)^-1/2 after its trivial first triplet (σ = 1), so K+1 are asked for.
# Prints one line key=value; the timed part is svds alone, peak RSS is reset just before it.
suppressMessages({library(Matrix); library(RSpectra)})
args <- commandArgs(trailingOnly = TRUE)
con <- file(args[1], "rb")
h <- readBin(con, "double", 3)
indptr <- readBin(con, "double", h[1] + 1)
idx <- readBin(con, "integer", h[3], size = 4)
x <- readBin(con, "double", h[3])
close(con)
k <- as.integer(args[2])
N <- sparseMatrix(p = as.integer(indptr), j = idx, x = x, dims = h[1:2], index1 = FALSE, repr = "R")
n <- sum(x)
r <- rowSums(N) / n
cc <- colSums(N) / n
M <- Diagonal(x = 1 / sqrt(r)) %*% (N / n) %*% Diagonal(x = 1 / sqrt(cc))
M <- as(M, "RsparseMatrix")
invisible(gc())
try(writeLines("5", "/proc/self/clear_refs"), silent = TRUE)
t0 <- proc.time()
s <- svds(M, k + 1, nu = k + 1, nv = k + 1)
el <- proc.time() - t0
st <- readLines("/proc/self/status")
hwm <- as.numeric(sub("VmHWM:\\s*([0-9]+) kB", "\\1", st[grepl("^VmHWM", st)])) / 1024
d <- s$d[-1]
cat(sprintf("peer=rspectra k=%d seconds=%.2f cpu_seconds=%.2f peak_rss_mb=%.1f products=%d sigma1_5=%s sigma_k=%.6g\n",
            k, el[["elapsed"]], el[["user.self"]] + el[["sys.self"]], hwm, as.integer(s$nops),
            paste(sprintf("%.5f", d[1:5]), collapse = ","), d[k]))
