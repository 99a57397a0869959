#!/usr/bin/env bash
# Regenerates every golden file of this folder. Needs a trec_eval 10.0 binary
# (see README.md for how it was built) and Python 3 (standard library only).
#
#   TREC_EVAL=/path/to/trec_eval bash tests/golden/regenerate.sh
#
# Tests never run this: they only read the stored goldens.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
TREC_EVAL="${TREC_EVAL:?set TREC_EVAL to a trec_eval 10.0 binary}"
PYTHON="${PYTHON:-python3}"
DENO="${DENO:-npx -y deno}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT

# 1. Fixtures: the stored ones in place, and all of them (with the large ones) in WORK.
$DENO run -A "$HERE/make_fixtures.ts"
$DENO run -A "$HERE/make_fixtures.ts" --out "$WORK" --include-large

# 2. trec_eval goldens: every fixture x {base, -c, -l 2}.
MEASURES=(-m num_q -m P.5,10,20 -m recall.5,10,100 -m map -m map_cut.10,100 -m Rprec -m recip_rank -m ndcg_cut.5,10,20)
VERSION="$("$TREC_EVAL" -v 2>&1 | head -1)"
names=$("$PYTHON" -c 'import json,sys; print(" ".join(f["name"]+":"+f["trecEvalRun"] for f in json.load(open(sys.argv[1]))))' "$WORK/trec/fixtures/manifest.json")
for entry in $names; do
  name="${entry%%:*}"
  terun="${entry#*:}"
  for variant in base complete rel2; do
    case "$variant" in
      base) flags=() ;;
      complete) flags=(-c) ;;
      rel2) flags=(-l 2) ;;
    esac
    cmd="trec_eval -q ${flags[*]:+${flags[*]} }${MEASURES[*]} trec/fixtures/$name.qrels trec/fixtures/$terun"
    (cd "$WORK" && "$TREC_EVAL" -q "${flags[@]}" "${MEASURES[@]}" "trec/fixtures/$name.qrels" "trec/fixtures/$terun") |
      $DENO run -A "$HERE/convert_trec_eval.ts" --base "$WORK" --fixture "$name" --variant "$variant" \
        --command "$cmd" --version "$VERSION" --qrels "trec/fixtures/$name.qrels" \
        --run "trec/fixtures/$name.run" --trec-eval-run "trec/fixtures/$terun" >"$HERE/trec/$name.$variant.json"
  done
done

# 3. alpha-nDCG goldens from the independent Python implementation of alpha-nDCG.
"$PYTHON" "$HERE/reference/alpha_ndcg.py" "$HERE/diversity/fixtures" >"$HERE/diversity/golden.json"

# 4. CRUX: required subset -> qrels files (written into crux/fixtures), then measure goldens.
"$PYTHON" "$HERE/reference/crux_reference.py" "$HERE/crux/fixtures" >"$HERE/crux/golden.json"

# 5. Cross-check: P@10 and nDCG@10 on the CRUX qrels from trec_eval must equal the Python values.
for run in bm25 dense short; do
  "$TREC_EVAL" -q -m P.10 -m ndcg_cut.10 "$HERE/crux/fixtures/crux_qrels_pr.txt" "$HERE/crux/fixtures/runs/$run.run" >"$WORK/crux.$run.txt"
done
"$PYTHON" "$HERE/reference/crux_reference.py" --check-trec-eval "$WORK" "$HERE/crux/golden.json"
# 6. Keep the JSON in the repository's formatting so reruns give identical files.
$DENO fmt "$HERE" >/dev/null 2>&1
echo "Goldens regenerated with $VERSION"
