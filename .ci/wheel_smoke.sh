#!/usr/bin/env bash
# The package as users install it: build the sdist and the wheel, install the WHEEL (not the
# clone) into a fresh venv, and from a folder outside the source tree run every sub-command once
# on its bundled example (.ci/wheel_smoke.py lists them; each must exit 0).
# Usage: .ci/wheel_smoke.sh [PYTHON]   (PYTHON has the 'build' package; default .venv/bin/python)
set -euo pipefail
cd "$(dirname "$0")/.."
python=${1:-.venv/bin/python}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$python" -m build --outdir "$work/dist" . >"$work/build.log" 2>&1 || { cat "$work/build.log"; exit 1; }
ls "$work"/dist/*.tar.gz >/dev/null        # the sdist was built (the wheel is built from it)
wheel=$(ls "$work"/dist/*.whl)

python3 -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet --upgrade pip
# The extras users install: [ir] (pool-depth, evaluate and --runs evaluate runs with ir_measures),
# [plot] (--plot of pool-depth and report draws with matplotlib) and [excel] (xlwings).
"$work/venv/bin/python" -m pip install --quiet "$wheel[ir,plot,excel]"

mkdir "$work/elsewhere"
cp .ci/wheel_smoke.py "$work/"
cd "$work/elsewhere"
# A user's folder with modules of generic names: the installed package must not import them
# (it installs as topicsetsize.generator and topicsetsize.xladdin; issue 24).
for mod in generator workbook_templates; do
    echo "raise SystemExit('the user\'s own $mod.py was imported')" > "$mod.py"
done
"$work/venv/bin/topicsetsize" --version
"$work/venv/bin/python" -m topicsetsize workbook --out from_python_m.xlsx
test -s from_python_m.xlsx
# The Excel functions under their name and under the old path that Excel set-ups name.
"$work/venv/bin/python" -c "import topicsetsize.xladdin.udfs as new, xladdin.udfs as old
assert old.TSS_ANOVA is new.TSS_ANOVA and old.TSS_ANOVA(0.05, 0.2, 0.02, 0.0601, 2) == 2301"
"$work/venv/bin/python" -c "import topicsetsize as tss; tss.read_matrix; tss.example_matrix().shape"
"$work/venv/bin/python" "$work/wheel_smoke.py"
