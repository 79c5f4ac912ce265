#!/usr/bin/env bash
# A venv that installs the book the way Colab or a reader's `pip install git+...` does: a wheel
# built from this tree, not editable, without the book/dev extras, plus only the test runner
# (pytest, nbval, ipykernel). Prints the venv's path.
# The venv is rebuilt when the install files change (pyproject.toml, constraints.txt,
# requirements-nodeps.txt); when only the package's files change, just the wheel is reinstalled.
# Usage: bash tools/colab_venv.sh [VENV_DIR]   (default .venv-colab)
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${1:-$PWD/.venv-colab}"
PYTHON="${PYTHON:-python3}"
export PIP_DISABLE_PIP_VERSION_CHECK=1
# --no-compile: pip would byte-compile every installed module (all of torch's, most never imported by a
# chapter); Python compiles what a kernel imports on first import and keeps it in __pycache__
# (tools/run_tests.sh unsets PYTHONDONTWRITEBYTECODE). Measured: installing the torch wheel alone
# took 97 s with it and 206 s without (one after the other, on a machine under the same heavy load).
hash_of() { cat "$@" | sha256sum | cut -c1-16; }
deps=$(hash_of pyproject.toml constraints.txt requirements-nodeps.txt)
code=$(hash_of pyproject.toml $(git ls-files -co --exclude-standard nlp_helpers | LC_ALL=C sort))
log="$(mktemp)"

install_wheel() {  # build the wheel from this tree and install it (not editable, no extras)
  local wheels && wheels="$(mktemp -d)" &&
  "$VENV/bin/pip" wheel -q --no-deps -w "$wheels" . &&
  "$VENV/bin/pip" install -q --no-compile -c constraints.txt "$@" "$wheels"/nlp_helpers-*.whl &&
  rm -rf "$wheels"
}

build() {  # each step must succeed (errexit does not apply inside an `if` condition)
  rm -rf "$VENV" &&
  "$PYTHON" -m venv "$VENV" &&
  install_wheel &&
  "$VENV/bin/pip" install -q --no-compile --no-deps -r requirements-nodeps.txt &&
  "$VENV/bin/pip" install -q --no-compile pytest pytest-xdist nbval ipykernel &&
  "$VENV/bin/python" -m ipykernel install --sys-prefix --name python3 --display-name "Python 3" &&
  echo "$deps" > "$VENV/.deps" && echo "$code" > "$VENV/.code"
}

refresh() {
  install_wheel --force-reinstall --no-deps && echo "$code" > "$VENV/.code"
}

if [ "$(cat "$VENV/.deps" 2>/dev/null)" != "$deps" ]; then
  echo "building the Colab-style venv $VENV from a wheel of this tree (log: $log) ..." >&2
  action=build
elif [ "$(cat "$VENV/.code" 2>/dev/null)" != "$code" ]; then
  echo "reinstalling this tree's wheel into $VENV (log: $log) ..." >&2
  action=refresh
else
  echo "$VENV"; exit 0
fi
if ! "$action" > "$log" 2>&1; then
  grep -v "^WARNING: Location" "$log" | tail -n 30 >&2
  echo "building the Colab-style venv failed (full log: $log)" >&2
  exit 1
fi
echo "$VENV"
