#!/usr/bin/env python3
"""Train gensim word2vec (SGNS or CBOW) on a plain text corpus and write the
vectors in word2vec text format: the reference implementation that KCA lab's
`external` method runs next to its Go baselines.

usage: gensim_w2v.py CORPUS OUT --sg 1|0 --dim D --window W --epochs E
                     --min-count M --seed S --workers N
"""
import argparse
import logging

from gensim.models import Word2Vec
from gensim.models.word2vec import LineSentence


def main():
    p = argparse.ArgumentParser()
    p.add_argument("corpus")
    p.add_argument("out")
    p.add_argument("--sg", type=int, required=True)
    p.add_argument("--dim", type=int, default=100)
    p.add_argument("--window", type=int, default=5)
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--min-count", type=int, default=5)
    p.add_argument("--negative", type=int, default=5)
    p.add_argument("--sample", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=1)
    a = p.parse_args()
    logging.basicConfig(format="gensim: %(message)s", level=logging.WARNING)
    m = Word2Vec(
        LineSentence(a.corpus),
        sg=a.sg,
        vector_size=a.dim,
        window=a.window,
        epochs=a.epochs,
        min_count=a.min_count,
        negative=a.negative,
        sample=a.sample,
        alpha=0.025 if a.sg else 0.05,
        seed=a.seed,
        workers=a.workers,
    )
    m.wv.save_word2vec_format(a.out, binary=False)


if __name__ == "__main__":
    main()
