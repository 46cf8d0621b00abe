#!/usr/bin/env python3
"""Load a word-vector export (word2vec text format, as `kcalab -vectors` or
vectors.save writes it) in gensim and check it against the word-similarity
sets: every word of every set must have a vector (an export holds the words
the trial composed from n-grams after its vocabulary), and gensim's own
evaluate_word_pairs (cosine, Spearman ρ over the pairs it covers) is printed
per set, to compare with the record's spearman.cosine.skip.<set> (or the
plain key when the trial's eval.similarity is cosine).

usage: check_export.py VECTORS WORDSIM_DIR [SET.txt ...]
exit status 1 when a set word has no vector.
"""
import os
import sys

from gensim.models import KeyedVectors

SETS = ["ws353_similarity.txt", "ws353_relatedness.txt", "men.txt", "mturk287.txt", "rare_words.txt", "simlex999.txt"]


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    kv = KeyedVectors.load_word2vec_format(sys.argv[1], binary=False)
    sets = sys.argv[3:] or SETS
    missing_total = 0
    for name in sets:
        path = os.path.join(sys.argv[2], name)
        words = set()
        with open(path, encoding="utf-8") as f:
            for line in f:
                parts = line.split()
                if len(parts) >= 3:
                    words.update(parts[:2])
        missing = sorted(w for w in words if w not in kv.key_to_index)
        missing_total += len(missing)
        (pearson, spearman, oov) = kv.evaluate_word_pairs(path, delimiter="\t", case_insensitive=False, dummy4unknown=False)
        print(f"{name}: {len(words)} words, {len(missing)} without a vector; gensim Spearman {spearman.statistic:.4f} (OOV pairs {oov:.1f}%)")
        if missing:
            print("  missing:", " ".join(missing[:20]))
    print(f"{len(kv.key_to_index)} vectors of dimension {kv.vector_size}")
    sys.exit(1 if missing_total else 0)


if __name__ == "__main__":
    main()
