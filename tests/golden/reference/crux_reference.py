#!/usr/bin/env python3
"""Independent reference implementation of the CRUX measures (Ju et al., 2025).

Written from the published definitions alone, standard library only:

* required subset (dataset construction, tau = 3): B(p, q) = [G(p, q) >= tau];
  while an answerable question is uncovered, score every passage by the number
  of uncovered questions it answers + 0.1 * [any rating > 0 on an uncovered
  question], take the highest (first in passage order, i.e. judgment-file
  order, on ties) and keep it.  Kept passages get grade 3; a passage not kept
  whose rating is strictly below the best kept rating on every question of the
  topic, unanswerable ones included (the original code compares whole rating
  vectors), is redundant (grade 1); every other passage gets grade 2.  The
  variant that compares only answerable questions is recorded as well
  ("requiredSubsetAnswerable").
  Diversity qrels: every passage x every sub-question (numbered from 1, in the
  judgments' order): 1 if G >= tau else 0.
* Cov(tau)@k, Cov@oracle (k = |P*|), alpha-nDCG over sub-questions, P@k and
  nDCG@k from the CRUX qrels (trec_eval semantics: relevant = grade >= 1,
  gain = grade), Den(w)@k with whitespace token counts.

-1 ratings count as 0 and are reported.  Runs are ordered by score
descending, then passage id descending (byte order); repeats keep their
best-ranked occurrence.  Topics evaluated: those in both the run and the
judgments; a topic with |A| = 0 is left out of Cov and Den and listed.

Usage:
  crux_reference.py FIXTURE_DIR > golden.json      (also writes FIXTURE_DIR/crux_qrels_pr.txt)
  crux_reference.py --check-trec-eval OUT_DIR golden.json
"""
import json
import math
import os
import sys
from collections import defaultdict

TAU = 3
ALPHA = 0.5
MEASURES = ["Cov@10", "Cov@oracle", "alpha_nDCG@10", "P@10", "nDCG@10", "Den(w=0.5)@10"]
RUNS = ["bm25", "dense", "short"]


def key_bytes(s):
    return s.encode("utf-8")


def read_judgments(path):
    """topic -> list of (passage id, ratings with -1 kept) in file order."""
    topics = defaultdict(list)
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            rec = json.loads(line)
            topic = rec["example_id"] if "example_id" in rec else rec["id"]
            item = rec["pid"] if "pid" in rec else rec["docid"]
            topics[str(topic)].append((str(item), list(rec["rating"])))
    return topics


def clean(ratings):
    return [max(r, 0) for r in ratings]


def required_subset(passages, redundancy="all"):
    """passages: [(pid, ratings)] -> (kept ids in selection order, grades dict)."""
    rows = [(pid, clean(r)) for pid, r in passages]
    nq = len(rows[0][1])
    answerable = [q for q in range(nq) if any(r[q] >= TAU for _, r in rows)]
    uncovered = set(answerable)
    kept = []
    while uncovered:
        best, best_score = None, None
        for i, (pid, r) in enumerate(rows):
            answers = sum(1 for q in uncovered if r[q] >= TAU)
            partial = 1 if any(r[q] > 0 for q in uncovered) else 0
            score = answers + 0.1 * partial
            if best_score is None or score > best_score:
                best, best_score = i, score
        pid, r = rows[best]
        new = {q for q in uncovered if r[q] >= TAU}
        if not new:
            break
        kept.append(pid)
        uncovered -= new
    kept_set = set(kept)
    compared = list(range(nq)) if redundancy == "all" else answerable
    best_kept = {q: max(r[q] for pid, r in rows if pid in kept_set) for q in compared}
    grades = {}
    for pid, r in rows:
        if pid in kept_set:
            grades[pid] = 3
        elif compared and all(r[q] < best_kept[q] for q in compared):
            grades[pid] = 1
        else:
            grades[pid] = 2
    return kept, grades


def read_corpus_tokens(path):
    tokens = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                rec = json.loads(line)
                text = rec["contents"] if "contents" in rec else rec["text"]
                tokens[rec["id"]] = len(text.split())
    return tokens


class _Desc:
    def __init__(self, b):
        self.b = b

    def __lt__(self, other):
        return self.b > other.b

    def __eq__(self, other):
        return self.b == other.b


def read_run(path):
    rows = defaultdict(list)
    with open(path, encoding="utf-8") as f:
        for line in f:
            cols = line.split()
            if cols:
                rows[cols[0]].append((float(cols[4]), cols[2]))
    ranked = {}
    for topic, items in rows.items():
        items.sort(key=lambda t: (-t[0], _Desc(key_bytes(t[1]))))
        seen, docs = set(), []
        for _, doc in items:
            if doc not in seen:
                seen.add(doc)
                docs.append(doc)
        ranked[topic] = docs
    return ranked


def coverage_mask(ids, ratings, nq):
    covered = [False] * nq
    for pid in ids:
        r = ratings.get(pid)
        if r is None:
            continue
        for q in range(nq):
            if r[q] >= TAU:
                covered[q] = True
    return covered


def alpha_ndcg(docs, subtopics, k):
    def gains(order):
        seen = defaultdict(int)
        out = []
        for d in order:
            subs = subtopics.get(d, ())
            out.append(sum((1 - ALPHA) ** seen[s] for s in subs))
            for s in subs:
                seen[s] += 1
        return out

    def dcg(g):
        return sum(x / math.log2(i + 2) for i, x in enumerate(g[:k]))

    remaining = sorted(subtopics, key=key_bytes, reverse=True)
    seen = defaultdict(int)
    ideal = []
    while remaining and len(ideal) < k:
        best, best_gain = None, -1.0
        for d in remaining:
            g = sum((1 - ALPHA) ** seen[s] for s in subtopics[d])
            if g > best_gain + 1e-12:
                best, best_gain = d, g
        ideal.append(best_gain)
        for s in subtopics[best]:
            seen[s] += 1
        remaining.remove(best)
    idcg = dcg(ideal)
    return dcg(gains(docs)) / idcg if idcg > 0 else 0.0


def trec_p_ndcg(docs, qrels, k):
    grades = [qrels.get(d, -1) for d in docs]
    p = sum(1 for g in grades[:k] if g >= 1) / k
    dcg = sum(g / math.log2(i + 2) for i, g in enumerate(grades[:k]) if g > 0)
    ideal_grades = sorted((g for g in qrels.values() if g > 0), reverse=True)
    idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal_grades[:k]))
    return p, (dcg / idcg if idcg > 0 else dcg)


def evaluate_topic(docs, topic, tokens):
    ratings, nq, oracle, qrels, subtopics = topic
    values, skipped = {}, []
    answerable = coverage_mask(oracle, ratings, nq)
    n_a = sum(answerable)

    def cov(ids):
        covered = coverage_mask(ids, ratings, nq)
        return sum(1 for q in range(nq) if answerable[q] and covered[q]) / n_a

    if n_a == 0:
        skipped = ["Cov@10", "Cov@oracle", "Den(w=0.5)@10"]
    else:
        values["Cov@10"] = cov(docs[:10])
        values["Cov@oracle"] = cov(docs[: len(oracle)])
        z = docs[:10]
        cz, tz = cov(z), sum(tokens.get(d, 0) for d in z)
        co, to = cov(oracle), sum(tokens.get(d, 0) for d in oracle)
        values["Den(w=0.5)@10"] = ((cz / tz) / (co / to)) ** 0.5 if cz > 0 and tz > 0 else 0.0
    values["alpha_nDCG@10"] = alpha_ndcg(docs, subtopics, 10)
    values["P@10"], values["nDCG@10"] = trec_p_ndcg(docs, qrels, 10)
    return values, skipped


def build(fixture_dir):
    judgments = read_judgments(os.path.join(fixture_dir, "judgments.jsonl"))
    tokens = read_corpus_tokens(os.path.join(fixture_dir, "corpus.jsonl"))
    unparseable = sum(1 for ps in judgments.values() for _, r in ps for x in r if x == -1)
    subset, subset_answerable, qrel_lines, div_lines, topics = {}, {}, [], {}, {}
    for topic_id, passages in judgments.items():
        kept, grades = required_subset(passages)
        if not kept:
            continue
        subset[topic_id] = {"kept": kept, "grades": grades}
        subset_answerable[topic_id] = required_subset(passages, "answerable")[1]
        ratings = {pid: clean(r) for pid, r in passages}
        nq = len(passages[0][1])
        for pid, r in passages:
            qrel_lines.append(f"{topic_id} 0 {pid} {grades[pid]}")
            positives = [q + 1 for q in range(nq) if ratings[pid][q] >= TAU]
            if positives:
                div_lines.setdefault(topic_id, {})[pid] = positives
        oracle = [pid for pid, _ in passages if grades[pid] == 3]
        subtopics = {pid: [q for q in range(nq) if ratings[pid][q] >= TAU] for pid, _ in passages}
        topics[topic_id] = (ratings, nq, oracle, grades, subtopics)
    with open(os.path.join(fixture_dir, "crux_qrels_pr.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(qrel_lines) + "\n")
    runs = []
    for name in RUNS:
        run = read_run(os.path.join(fixture_dir, "runs", f"{name}.run"))
        evaluated = sorted((t for t in run if t in topics), key=key_bytes)
        per_query, skipped = {}, []
        for t in evaluated:
            values, skip = evaluate_topic(run[t], topics[t], tokens)
            per_query[t] = values
            skipped += [{"topicId": t, "measure": m} for m in skip]
        aggregate = {}
        for m in MEASURES:
            vals = [v[m] for v in per_query.values() if m in v]
            aggregate[m] = sum(vals) / len(vals)
        runs.append({"run": f"crux/fixtures/runs/{name}.run", "topics": len(evaluated),
                     "aggregate": aggregate, "perQuery": per_query, "skipped": skipped})
    return {
        "source": "tests/golden/reference/crux_reference.py, an independent implementation of the CRUX measures",
        "command": "python3 tests/golden/reference/crux_reference.py tests/golden/crux/fixtures",
        "tau": TAU,
        "tokenizer": "whitespace",
        "measures": MEASURES,
        "unparseableRatings": unparseable,
        "redundancy": "all sub-questions (the original rule); requiredSubsetAnswerable: answerable only",
        "requiredSubset": subset,
        "requiredSubsetAnswerable": subset_answerable,
        "diversityQrels": {
            "note": "subtopic ids (from 1) with G >= tau per passage; every other (passage, subtopic) pair is 0",
            "positives": div_lines,
        },
        "runs": runs,
    }


def check_trec_eval(out_dir, golden_path):
    with open(golden_path, encoding="utf-8") as f:
        golden = json.load(f)
    names = {"P_10": "P@10", "ndcg_cut_10": "nDCG@10"}
    checked = 0
    for entry in golden["runs"]:
        name = os.path.basename(entry["run"])[: -len(".run")]
        with open(os.path.join(out_dir, f"crux.{name}.txt"), encoding="utf-8") as f:
            for line in f:
                measure, topic, value = [c.strip() for c in line.split("\t")]
                if topic == "all" or measure not in names:
                    continue
                ours = entry["perQuery"][topic][names[measure]]
                if abs(ours - float(value)) > 0.00005 + 1e-9:
                    sys.exit(f"trec_eval disagrees on {name} {topic} {measure}: {value} vs {ours}")
                checked += 1
    print(f"trec_eval agrees with the Python reference on {checked} CRUX P@10/nDCG@10 values")


if __name__ == "__main__":
    if sys.argv[1] == "--check-trec-eval":
        check_trec_eval(sys.argv[2], sys.argv[3])
    else:
        json.dump(build(sys.argv[1]), sys.stdout, indent=1, ensure_ascii=False)
        sys.stdout.write("\n")
