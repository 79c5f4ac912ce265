#!/usr/bin/env bash
# Run every chapter (or the ones named) under several seed offsets and ATen kernel paths, as
# readers' machines would: a claim in a chapter must hold on all of them, not only on yours.
#   make robust                                   # offsets 0 3 7, kernels native default avx2
#   make robust OFFSETS="1 2 4 5" KERNELS="default" NOTEBOOKS="book/rnn/cells.ipynb"
# Each configuration runs nbval (exercises strict) on the notebooks; the table at the end says
# which configuration failed which notebook. Run it before you commit a chapter that trains or samples.
set -uo pipefail
cd "$(dirname "$0")/.."
BIN="$PWD/.venv/bin"
export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 PYTHONHASHSEED=0 MPLBACKEND=Agg PYDEVD_DISABLE_FILE_VALIDATION=1
export OMP_NUM_THREADS="${OMP_NUM_THREADS:-1}" MKL_NUM_THREADS="${MKL_NUM_THREADS:-1}" NLP_EXERCISES_STRICT=1
read -r -a offsets <<< "${OFFSETS:-0 3 7}"
read -r -a kernels <<< "${KERNELS:-native default avx2}"
if [ -n "${NOTEBOOKS:-}" ]; then read -r -a notebooks <<< "$NOTEBOOKS"
else mapfile -t notebooks < <("$BIN/python" -m tools.toc_notebooks); fi
log="$(mktemp -d)"
declare -a summary
status=0
for kernel in "${kernels[@]}"; do
  for offset in "${offsets[@]}"; do
    name="kernel=$kernel offset=$offset"
    cap=(); [ "$kernel" = native ] || cap=(ATEN_CPU_CAPABILITY="$kernel")
    echo "== $name"
    if env "${cap[@]}" NLP_SEED_OFFSET="$offset" "$BIN/python" -m pytest --nbval-lax -n "${NLP_TEST_JOBS:-2}" \
        --dist loadfile -q -p no:cacheprovider "${notebooks[@]}" > "$log/$kernel-$offset.txt" 2>&1; then
      summary+=("ok    $name")
    else
      status=1
      failed=$(grep -oE '^FAILED [^ ]+' "$log/$kernel-$offset.txt" | sed 's/^FAILED //' | sort -u | tr '\n' ' ')
      summary+=("FAIL  $name: ${failed:-see $log/$kernel-$offset.txt}")
    fi
    tail -n 1 "$log/$kernel-$offset.txt"
  done
done
printf '\n%s\n' "${summary[@]}"
echo "(full logs in $log)"
exit $status
