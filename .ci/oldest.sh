#!/usr/bin/env bash
# CI step: the engine and the Excel functions on the OLDEST numpy, scipy, pandas, openpyxl, lxml and
# tqdm that pyproject.toml allows (pinned in .ci/oldest-constraints.txt), so that a lower bound
# cannot silently go stale. The test tools (pytest, hypothesis, statsmodels, ...) are whatever
# pip finds compatible with those pins.
#
# It also stands for xlwings Lite's Pyodide, which ships scipy 1.14.1: the floor here is 1.14.0,
# and neither has scipy.optimize.elementwise (the project's own root finder needs none).
#
# Same tests as that job plus tests/xladdin; not the CLI (subprocess start-ups) and not the
# generator (LibreOffice), which the main job runs on the newest dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."

constraints=.ci/oldest-constraints.txt
python3 -m venv .venv-oldest
.venv-oldest/bin/python -m pip install --quiet --upgrade pip
.venv-oldest/bin/python -m pip install --quiet -c "$constraints" -e '.[test]'

# The pins must be what is installed (a resolver that upgraded one would test the wrong floor).
.venv-oldest/bin/python - "$constraints" <<'PY'
import sys
from importlib.metadata import version

pins = [line.split("#")[0].strip() for line in open(sys.argv[1], encoding="utf-8")]
wrong = [f"{name} {version(name)} (pinned {want})"
         for name, want in (p.split("==") for p in pins if p) if version(name) != want]
if wrong:
    sys.exit("oldest dependencies not installed: " + ", ".join(wrong))
print("oldest dependencies:", ", ".join(p for p in pins if p))
PY

.venv-oldest/bin/pytest -q -p no:cacheprovider -m "not slow" tests/topicsetsize topicsetsize \
    tests/xladdin --ignore=tests/topicsetsize/cli

# Tests marked slow since (a second or more) that this job ran before: the engine's simulations
# and readers on the oldest dependencies too.
.venv-oldest/bin/pytest -q -p no:cacheprovider \
    "tests/topicsetsize/designs/test_tukey_pair.py::test_one_pair_n_is_the_simulated_answer_without_monte_carlo_error" \
    "tests/topicsetsize/designs/test_allpairs.py::test_two_clusters_put_the_most_pairs_at_min_d_and_need_more_topics" \
    "tests/topicsetsize/matrices/test_runfiles.py::test_bundled_qrels_read_in_blocks_are_the_whole_files" \
    "tests/xladdin/test_officejs.py::test_readme_example"
