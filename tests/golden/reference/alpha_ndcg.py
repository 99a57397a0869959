#!/usr/bin/env python3
"""Independent reference implementation of alpha-nDCG (Clarke et al., 2008) with ndeval's rules.

Written from the published definition alone (Clarke et al. 2008, ndeval's rules as stated
there): binary subtopic judgments (grade >= 1), gain at rank r = sum over
subtopics of J(d_r, s) * (1 - alpha)^(documents above r relevant to s),
discount 1/log2(r + 1), greedy ideal ranking over the judged documents with
ties going to the larger document id (byte order). Runs are ordered by score
descending, then document id descending (byte order); a repeated document keeps
its best-ranked occurrence. Topics averaged: those in both the run and the
qrels. A topic whose ideal DCG is 0 scores 0 (no fixture has one).

Usage: alpha_ndcg.py FIXTURE_DIR > golden.json
Standard library only.
"""
import json
import math
import os
import sys
from collections import defaultdict

MEASURES = [(5, 0.5), (10, 0.5), (20, 0.5), (10, 0.8)]


def measure_name(k, alpha):
    return f"alpha_nDCG@{k}" if alpha == 0.5 else f"alpha_nDCG(alpha={alpha:g})@{k}"


def read_div_qrels(path):
    """topic -> doc -> set of subtopics the doc is relevant to (judged docs with no subtopic map to an empty set)."""
    topics = defaultdict(dict)
    with open(path, encoding="utf-8") as f:
        for line in f:
            cols = line.split()
            if not cols:
                continue
            topic, sub, doc, grade = cols
            subs = topics[topic].setdefault(doc, set())
            if int(grade) >= 1:
                subs.add(sub)
    return topics


def key_bytes(doc):
    return doc.encode("utf-8")


def read_run(path):
    """topic -> ranked doc list (score desc, doc id desc in byte order, duplicates dropped)."""
    rows = defaultdict(list)
    with open(path, encoding="utf-8") as f:
        for line in f:
            cols = line.split()
            if cols:
                rows[cols[0]].append((float(cols[4]), key_bytes(cols[2]), cols[2]))
    ranked = {}
    for topic, items in rows.items():
        items.sort(key=lambda t: (-t[0], _neg_bytes(t[1])))
        seen, docs = set(), []
        for _, _, doc in items:
            if doc not in seen:
                seen.add(doc)
                docs.append(doc)
        ranked[topic] = docs
    return ranked


class _neg_bytes:
    """Sort key that orders byte strings descending."""

    def __init__(self, b):
        self.b = b

    def __lt__(self, other):
        return self.b > other.b

    def __eq__(self, other):
        return self.b == other.b


def gains(docs, judged, alpha):
    seen = defaultdict(int)
    out = []
    for doc in docs:
        subs = judged.get(doc, set())
        out.append(sum((1 - alpha) ** seen[s] for s in subs))
        for s in subs:
            seen[s] += 1
    return out


def dcg(gain_list, k):
    return sum(g / math.log2(r + 2) for r, g in enumerate(gain_list[:k]))


def ideal_gains(judged, alpha, k):
    remaining = sorted(judged, key=key_bytes, reverse=True)  # larger id first wins ties
    seen = defaultdict(int)
    out = []
    while remaining and len(out) < k:
        best, best_gain = None, -1.0
        for doc in remaining:
            g = sum((1 - alpha) ** seen[s] for s in judged[doc])
            if g > best_gain + 1e-12:
                best, best_gain = doc, g
        out.append(best_gain)
        for s in judged[best]:
            seen[s] += 1
        remaining.remove(best)
    return out


def alpha_ndcg(docs, judged, k, alpha):
    ideal = dcg(ideal_gains(judged, alpha, k), k)
    return dcg(gains(docs, judged, alpha), k) / ideal if ideal > 0 else 0.0


def evaluate(run, qrels):
    topics = sorted((t for t in run if t in qrels), key=key_bytes)
    per_query = {}
    for t in topics:
        per_query[t] = {measure_name(k, a): alpha_ndcg(run[t], qrels[t], k, a) for k, a in MEASURES}
    aggregate = {
        measure_name(k, a): sum(v[measure_name(k, a)] for v in per_query.values()) / len(per_query)
        for k, a in MEASURES
    }
    return {"topics": len(topics), "aggregate": aggregate, "perQuery": per_query}


def self_check():
    """The published reference values."""
    q = {"d0": {"0", "1"}, "d1": {"0"}}
    assert abs(alpha_ndcg(["d0"], q, 10, 0.5) - 0.8637574337885664) < 1e-12
    assert abs(alpha_ndcg(["d1"], q, 10, 0.5) - 0.4318787168942832) < 1e-12
    q2 = {"A": {"a"}, "B": {"b"}, "D": {"b"}, "C": {"c"}}
    assert round(alpha_ndcg(["A", "D", "E", "B"], q2, 5, 0.5), 4) == 0.7869


def main(fixture_dir):
    self_check()
    results = []
    for name in sorted(os.listdir(fixture_dir)):
        if not name.endswith(".qrels"):
            continue
        base = name[: -len(".qrels")]
        qrels = read_div_qrels(os.path.join(fixture_dir, name))
        for run_name in sorted(os.listdir(fixture_dir)):
            if run_name.startswith(base + ".") and run_name.endswith(".run"):
                run = read_run(os.path.join(fixture_dir, run_name))
                entry = {"qrels": f"diversity/fixtures/{name}", "run": f"diversity/fixtures/{run_name}"}
                entry.update(evaluate(run, qrels))
                results.append(entry)
    golden = {
        "source": "tests/golden/reference/alpha_ndcg.py, an independent implementation of alpha-nDCG "
        "(ndeval was not available to build); its self-check asserts the published reference values",
        "command": "python3 tests/golden/reference/alpha_ndcg.py tests/golden/diversity/fixtures",
        "results": results,
    }
    json.dump(golden, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv[1])
