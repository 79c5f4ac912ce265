#!/usr/bin/env bash
# A venv that installs the book the way Colab or a reader's `pip install git+...` does: a wheel
# built from this tree, not editable, without the book/dev extras, plus only the test runner
# (pytest, nbval, ipykernel). Prints the venv's path. Reused while the wheel's contents and the
# install files are unchanged (a hash of them is stored in the venv); rebuilt otherwise.
# Usage: bash tools/colab_venv.sh [VENV_DIR]   (default .venv-colab)
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${1:-$PWD/.venv-colab}"
PYTHON="${PYTHON:-python3}"
export PIP_DISABLE_PIP_VERSION_CHECK=1
stamp=$(cat pyproject.toml constraints.txt requirements-nodeps.txt \
        $(git ls-files -co --exclude-standard nlp_helpers | LC_ALL=C sort) | sha256sum | cut -c1-16)
if [ -f "$VENV/.stamp" ] && [ "$(cat "$VENV/.stamp")" = "$stamp" ]; then echo "$VENV"; exit 0; fi
log="$(mktemp)"
echo "building the Colab-style venv $VENV (log: $log) ..." >&2
build() {  # each step must succeed (errexit does not apply inside an `if` condition)
  rm -rf "$VENV" &&
  "$PYTHON" -m venv "$VENV" &&
  local wheels && wheels="$(mktemp -d)" &&
  "$VENV/bin/pip" wheel -q --no-deps -w "$wheels" . &&
  "$VENV/bin/pip" install -q -c constraints.txt "$wheels"/nlp_helpers-*.whl &&
  "$VENV/bin/pip" install -q --no-deps -r requirements-nodeps.txt &&
  "$VENV/bin/pip" install -q pytest pytest-xdist nbval ipykernel &&
  "$VENV/bin/python" -m ipykernel install --sys-prefix --name python3 --display-name "Python 3" &&
  rm -rf "$wheels" &&
  echo "$stamp" > "$VENV/.stamp"
}
if ! build > "$log" 2>&1; then
  grep -v "^WARNING: Location" "$log" | tail -n 30 >&2
  echo "building the Colab-style venv failed (full log: $log)" >&2
  exit 1
fi
echo "$VENV"
