#!/usr/bin/env bash
# Every test of the book, in the order a failure is cheapest to find:
#   1. unit tests of nlp_helpers (reference parity, bad input, widgets' Python side, notebook hygiene)
#   2. nbval: every notebook of _toc.yml executed top to bottom in a fresh kernel,
#      with NLP_EXERCISES_STRICT=1 so every exercise solution must pass its checker
#   3. the book build with warnings as errors, from a clean _build
#   4. browser tests: Debian Chromium opens every built page (offline, math, widgets, controls)
# Steps 1-3 run in a network namespace with only loopback, so a hidden download fails the run.
# Called by `make test` after the install steps; run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="$PWD/.venv/bin"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 PYTHONHASHSEED=0 MPLBACKEND=Agg
export PYDEVD_DISABLE_FILE_VALIDATION=1
# One thread per process: the notebooks train many small models, and two processes of two
# threads each on two cores spend their time contending (measured: 10-100x slower).
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}" MKL_NUM_THREADS="${MKL_NUM_THREADS:-1}"
export HYPOTHESIS_STORAGE_DIRECTORY="${TMPDIR:-/tmp}/nlp-book-hypothesis"
JOBS="${NLP_TEST_JOBS:-2}"
mapfile -t NOTEBOOKS < <("$BIN/python" tools/toc_notebooks.py)

offline() {
  # Run "$@" with no network but loopback (Linux network namespace; root or user namespaces).
  # CI always runs this way. Where namespaces are unavailable (macOS, locked-down hosts) the
  # step runs with the network and says so; set NLP_REQUIRE_OFFLINE=1 to make that an error.
  if [ "${NLP_ALLOW_NETWORK:-0}" = "1" ]; then "$@"; return; fi
  local flags=(-n)
  [ "$(id -u)" = "0" ] || flags=(-r -n)
  if ! command -v unshare >/dev/null || ! unshare "${flags[@]}" true 2>/dev/null; then
    if [ "${NLP_REQUIRE_OFFLINE:-${CI:-}}" != "" ] && [ "${NLP_REQUIRE_OFFLINE:-${CI:-}}" != "0" ]; then
      echo "cannot create a network namespace, and the offline proof is required here" >&2
      return 1
    fi
    echo "(no network namespace available: this step runs with the network)" >&2
    "$@"
    return
  fi
  unshare "${flags[@]}" bash -c 'ip link set lo up && exec "$@"' offline "$@"
}

step() { printf '\n==== %s ====\n' "$*"; }
start=$SECONDS

step "1/4 unit tests (offline)"
offline "$BIN/python" -m pytest tests -m "not browser" -n "$JOBS" -q -p no:cacheprovider

step "2/4 nbval: execute every chapter notebook (offline, exercises strict)"
NLP_EXERCISES_STRICT=1 offline "$BIN/python" -m pytest --nbval-lax -n "$JOBS" --dist loadfile -q \
  -p no:cacheprovider "${NOTEBOOKS[@]}"

step "3/4 build the book with warnings as errors (offline)"
rm -rf _build
offline "$BIN/jupyter-book" build . -W -n --keep-going

step "4/4 browser tests (Debian Chromium via Playwright)"
"$BIN/python" -m pytest tests/browser -n "$JOBS" -q -p no:cacheprovider

printf '\nAll test steps passed in %d s.\n' $((SECONDS - start))
