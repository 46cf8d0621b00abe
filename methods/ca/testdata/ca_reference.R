# Reference numbers from R's ca package (Debian r-cran-ca) for methods/ca's
# statistics and supplementary points (issue 14). Regenerate with
#
#   cd methods/ca/testdata && Rscript ca_reference.R > ca_reference.json
#
# Every quantity comes from the raw fields of a ca object ($sv, $rowmass,
# $rowdist, $rowinertia, $rowcoord = standard coordinates, …), with ctr and
# cos² formed from them as summary.ca forms them (ctr = mass·standard²,
# cos² = principal²/dist²), as fractions, not permills. ca() is run with
# nd = NA, so every axis is kept and the coordinates cover all dimensions;
# quality is the sum of cos² over the first two axes (summary.ca's default
# nd = 2). The χ² test is chisq.test's.
#
# Supplementary points: for an active point, Σ over all axes of principal²
# is dist², so cos² = principal²/dist² is summary.ca's cor. A supplementary
# profile need not lie in the span of the active ones (Fisher's rows: 4-dim
# profile space, 3 axes); summary.ca divides by Σ principal² over the axes
# (…_cos2_summary below) where the definition divides by dist² (…_cos2, the
# number methods/ca reports).
suppressMessages(library(ca))

num <- function(x) {
  if (length(x) == 0) return("[]")
  s <- ifelse(is.na(x), "null", sprintf("%.17g", x))
  paste0("[", paste(s, collapse = ", "), "]")
}
mat <- function(m) {
  m <- as.matrix(m)
  paste0("[", paste(apply(m, 1, num), collapse = ", "), "]")
}
one <- function(x) sprintf("%.17g", unname(x))
str <- function(x) paste0("[", paste0('"', x, '"', collapse = ", "), "]")

reference <- function(tab, suprow, supcol) {
  I <- nrow(tab); J <- ncol(tab)
  fit <- ca(tab, suprow = suprow, supcol = supcol)
  ar <- setdiff(seq_len(I), suprow); ac <- setdiff(seq_len(J), supcol)
  sv <- fit$sv
  K <- 2
  side <- function(mass, dist, inertia, std) {
    pc <- sweep(std, 2, sv, "*")
    cos2 <- pc^2 / dist^2
    list(mass = mass, dist = dist, inertia = inertia, standard = std,
         principal = pc, ctr = sweep(mass * std^2, 2, 1, "*"),
         cos2 = cos2, cos2_summary = pc^2 / rowSums(pc^2),
         quality = rowSums(cos2[, 1:K, drop = FALSE]))
  }
  r <- side(fit$rowmass, fit$rowdist, fit$rowinertia, fit$rowcoord)
  cc <- side(fit$colmass, fit$coldist, fit$colinertia, fit$colcoord)
  test <- suppressWarnings(chisq.test(tab[ar, ac], correct = FALSE))
  out <- c(
    sprintf('"rows": %s', str(rownames(tab)[ar])),
    sprintf('"cols": %s', str(colnames(tab)[ac])),
    sprintf('"counts": %s', mat(tab[ar, ac])),
    sprintf('"sup_row_labels": %s', str(rownames(tab)[suprow])),
    sprintf('"sup_row_counts": %s', mat(tab[suprow, ac, drop = FALSE])),
    sprintf('"sup_col_labels": %s', str(colnames(tab)[supcol])),
    sprintf('"sup_col_counts": %s', mat(t(tab[ar, supcol, drop = FALSE]))),
    sprintf('"sv": %s', num(sv)),
    sprintf('"total_inertia": %s', one(sum(sv^2))),
    sprintf('"chi2": %s', one(unname(test$statistic))),
    sprintf('"df": %s', one(unname(test$parameter))),
    sprintf('"p_value": %s', one(test$p.value)),
    sprintf('"quality_axes": %d', K)
  )
  for (p in list(list("row", r, ar, suprow), list("col", cc, ac, supcol))) {
    s <- p[[2]]; a <- p[[3]]; sp <- p[[4]]
    out <- c(out,
      sprintf('"%s_mass": %s', p[[1]], num(s$mass[a])),
      sprintf('"%s_dist": %s', p[[1]], num(s$dist[a])),
      sprintf('"%s_inertia": %s', p[[1]], num(s$inertia[a])),
      sprintf('"%s_standard": %s', p[[1]], mat(s$standard[a, ])),
      sprintf('"%s_principal": %s', p[[1]], mat(s$principal[a, ])),
      sprintf('"%s_ctr": %s', p[[1]], mat(s$ctr[a, ])),
      sprintf('"%s_cos2": %s', p[[1]], mat(s$cos2[a, ])),
      sprintf('"%s_quality": %s', p[[1]], num(s$quality[a])),
      sprintf('"sup_%s_dist": %s', p[[1]], num(s$dist[sp])),
      sprintf('"sup_%s_standard": %s', p[[1]], mat(s$standard[sp, , drop = FALSE])),
      sprintf('"sup_%s_principal": %s', p[[1]], mat(s$principal[sp, , drop = FALSE])),
      sprintf('"sup_%s_cos2": %s', p[[1]], mat(s$cos2[sp, , drop = FALSE])),
      sprintf('"sup_%s_cos2_summary": %s', p[[1]], mat(s$cos2_summary[sp, , drop = FALSE])),
      sprintf('"sup_%s_quality": %s', p[[1]], num(s$quality[sp])))
  }
  paste0("{\n    ", paste(out, collapse = ",\n    "), "\n  }")
}

# Fisher's (1940) Caithness eye × hair colour table (datasets.Fisher()),
# with a supplementary row of made-up counts (illustrative only, chosen off
# the span of the active profiles) and the supplementary column "light"
# = fair + red (an aggregated category, the textbook use of a
# supplementary point).
fisher <- matrix(c(326, 38, 241, 110, 3,
                   688, 116, 584, 188, 4,
                   343, 84, 909, 412, 26,
                   98, 48, 403, 681, 85), nrow = 4, byrow = TRUE,
                 dimnames = list(c("blue", "light", "medium", "dark"),
                                 c("fair", "red", "medium", "dark", "black")))
fisher <- rbind(fisher, "hazel (made up)" = c(40, 10, 80, 90, 15))
fisher <- cbind(fisher, "light" = fisher[, "fair"] + fisher[, "red"])
fisher["hazel (made up)", "light"] <- 0 # ignored by ca: both supplementary

# Greenacre's smoking table (ca's data(smoke); experiments/tables/smoking.csv)
# with his supplementary points: the national average row (42, 29, 20, 9)
# and the "drinkers" column of the alcohol survey (11, 17, 46, 78, 18).
data(smoke)
smoking <- as.matrix(smoke)
smoking <- rbind(smoking, "national average" = c(42, 29, 20, 9))
smoking <- cbind(smoking, "drinkers" = c(11, 17, 46, 78, 18, 0))

cat("{\n")
cat(sprintf('  "generator": "%s",\n', paste("R", getRversion(), "ca", packageVersion("ca"))))
cat('  "fisher": ', reference(fisher, 5, 6), ",\n", sep = "")
cat('  "smoking": ', reference(smoking, 6, 5), "\n", sep = "")
cat("}\n")
