#!/usr/bin/python3
"""Make the analogy fixture and record what gensim answers on it.

Run from methods/eval/testdata with Debian's python3-gensim (4.2):

    /usr/bin/python3 make_analogy_fixture.py TEXT8_PREFIX QUESTIONS_WORDS

TEXT8_PREFIX is the unzipped text8_prefix corpus of the shared data and
QUESTIONS_WORDS word2vec's questions-words.txt. It writes

  analogy_vectors.txt   word2vec text vectors: SGNS (d = 32) of the 600 most
                        frequent words and the question words, 2,000 in all, plus a few capitalised twins
                        that test case folding (see below)
  analogy_questions.txt the Google questions whose four words are in the
                        fixture (folded), plus some that are not (coverage)
  analogy_gensim.txt    gensim's results: 3CosAdd accuracy per section and
                        total under evaluate_word_analogies, and the
                        3CosMul answers of most_similar_cosmul on a few
                        questions

The vectors are read back by gensim as float64, as Go scores them, so the
comparison is not blurred by float32 rounding near ties.
"""
import sys

import numpy as np
from gensim.models import KeyedVectors, Word2Vec
from gensim.models.word2vec import LineSentence

RESTRICT = 1800  # restrict_vocab: fewer than the rows, so the cut is tested
N_WORDS = 2000
N_FREQUENT = 600
DIM = 32

corpus, qpath = sys.argv[1], sys.argv[2]

model = Word2Vec(LineSentence(corpus, max_sentence_length=10000), vector_size=DIM,
                 window=5, min_count=5, sg=1, negative=5, epochs=3, workers=1, seed=1)
kv = model.wv
# The most frequent words and the question words, in frequency order (the
# order restrict_vocab cuts), so that many questions are covered.
qwords = set()
with open(qpath) as f:
    for line in f:
        if not line.startswith(":"):
            qwords.update(w.lower() for w in line.split())
words = [w for i, w in enumerate(kv.index_to_key) if i < N_FREQUENT or w in qwords][:N_WORDS]
vecs = [np.round(kv[w].astype(np.float64), 5) for w in words]

# Capitalised twins. "Greece" comes before "greece", so a folded lookup of
# GREECE takes its (perturbed) vector, as gensim's ok_vocab keeps the first
# key of each upper-cased form. "France" and "Japan" come after their
# lower-case forms: never looked up, but still candidates whose folded form
# counts as the answer (or is excluded as an input).
rng = np.random.default_rng(1)
for twin, before in [("Greece", True), ("France", False), ("Japan", False), ("Berlin", True)]:
    lower = twin.lower()
    if lower not in words:
        continue
    i = words.index(lower)
    v = np.round(vecs[i] + rng.normal(scale=0.3 * np.abs(vecs[i]).mean(), size=DIM), 5)
    at = i if before else i + 1
    words.insert(at, twin)
    vecs.insert(at, v)

with open("analogy_vectors.txt", "w") as f:
    f.write("%d %d\n" % (len(words), DIM))
    for w, v in zip(words, vecs):
        f.write(w + " " + " ".join("%.5f" % x for x in v) + "\n")

folded = {w.lower() for w in words[:RESTRICT]}
out, uncovered = [], 0
with open(qpath) as f:
    for line in f:
        if line.startswith(":"):
            out.append(line.strip())
            continue
        q = line.split()
        if all(w.lower() in folded for w in q):
            out.append(" ".join(q))
        elif uncovered < 60 and any(w.lower() in folded for w in q):
            out.append(" ".join(q))
            uncovered += 1
# Drop empty sections.
qs = [l for i, l in enumerate(out) if not (l.startswith(":") and (i + 1 == len(out) or out[i + 1].startswith(":")))]
with open("analogy_questions.txt", "w") as f:
    f.write("\n".join(qs) + "\n")

kv = KeyedVectors.load_word2vec_format("analogy_vectors.txt", binary=False, datatype=np.float64)
score, sections = kv.evaluate_word_analogies("analogy_questions.txt", restrict_vocab=RESTRICT, case_insensitive=True)
with open("analogy_gensim.txt", "w") as f:
    f.write("# gensim %s evaluate_word_analogies(restrict_vocab=%d, case_insensitive=True)\n" % (__import__("gensim").__version__, RESTRICT))
    f.write("# section correct incorrect (the last line is the total)\n")
    for s in sections:
        f.write("add\t%s\t%d\t%d\n" % (s["section"], len(s["correct"]), len(s["incorrect"])))
    f.write("# accuracy\t%.6f\n" % score)
    # 3CosMul: gensim's most_similar_cosmul (its epsilon is 1e-6) over the
    # first RESTRICT words, lower-case questions; the top answer that is not
    # an input.
    small = KeyedVectors(DIM, dtype=np.float64)
    small.add_vectors(words[:RESTRICT], np.array(vecs[:RESTRICT]))
    f.write("# mul a a* b answer (most_similar_cosmul(positive=[a*, b], negative=[a]), epsilon 1e-6)\n")
    n = 0
    for l in qs:
        if l.startswith(":"):
            continue
        q = l.lower().split()
        if not all(w in small.key_to_index for w in q):
            continue
        n += 1
        if n % 97:
            continue
        ans = small.most_similar_cosmul(positive=[q[1], q[2]], negative=[q[0]], topn=1)[0][0]
        f.write("mul\t%s\t%s\t%s\t%s\n" % (q[0], q[1], q[2], ans))
print(score)
