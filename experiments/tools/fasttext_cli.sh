#!/bin/sh
# Train the fastText CLI's skip-gram and write word2vec text vectors that,
# like KCA lab's Go fastText, also cover the evaluation words the corpus
# lacks (their vectors built from character n-grams by print-word-vectors):
# the reference implementation that the external method runs next to the Go
# baseline, so both are scored on the same pairs.
#
# usage: fasttext_cli.sh CORPUS WORDS OUT DIM WINDOW EPOCHS MIN_COUNT SEED THREADS
set -eu
corpus=$1 words=$2 out=$3 dim=$4 window=$5 epochs=$6 mincount=$7 seed=$8 threads=$9
fasttext skipgram -input "$corpus" -output ft -dim "$dim" -ws "$window" -epoch "$epochs" \
  -minCount "$mincount" -neg 5 -thread "$threads" -seed "$seed" -verbose 0
fasttext print-word-vectors ft.bin < "$words" > extra.txt
# The vocabulary's vectors, then the evaluation words not among them.
tail -n +2 ft.vec > body.txt
awk 'NR == FNR { seen[$1] = 1; print; next } !($1 in seen)' body.txt extra.txt > all.txt
{ echo "$(wc -l < all.txt) $dim"; cat all.txt; } > "$out"
