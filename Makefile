# NLP Step by Step: one entry point for readers, instructors and CI.
#   make book   install everything, build the book, print where to open it
#   make test   install everything and run every test (what CI runs)
#   make robust run every chapter under several seed offsets and CPU kernel paths (before you commit)
#   make page SLUG=classification PAGE=naive_bayes TITLE="Naive Bayes"   start a section page from the template
#   make reader-path   where every page stands on the reader's path (words, code lines, failures)
#   make checkpoints   retrain the models the book ships (nlp_helpers/checkpoints/) from their recipes
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3
VENV := .venv
BIN := $(CURDIR)/$(VENV)/bin
JB_FLAGS := -W -n --keep-going
OUTPUT_SYNC := $(if $(filter 4.%,$(MAKE_VERSION)),--output-sync=target)
export PIP_DISABLE_PIP_VERSION_CHECK := 1
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
# One thread per process unless you say otherwise: the chapters train many small models, where
# thread hand-offs cost more than they gain (and two notebooks at once would contend).
export OMP_NUM_THREADS ?= 1

.PHONY: book test test-tools robust install assets prepare serve lab student release graders benchmarks clean help page reader-path checkpoints

help:
	@sed -n 's/^#   //p' Makefile

book: install assets prepare
	$(BIN)/python -m tools.execute_book
	$(BIN)/jupyter-book build . $(JB_FLAGS)
	@echo
	@echo "The book is built. Open file://$(CURDIR)/_build/html/index.html"
	@echo "or run 'make serve' and open http://localhost:8000"
	@if [ -n "$${DISPLAY:-}$${WAYLAND_DISPLAY:-}" ] || [ "$$(uname)" = Darwin ]; then \
	  $(BIN)/python -m webbrowser -t "file://$(CURDIR)/_build/html/index.html" >/dev/null 2>&1 || true; fi

# The installs run in two lanes at once (each keeps about one core busy, or waits on the network): the
# book's venv; and the system packages (Chromium), the static assets and the Colab-style venv the notebook
# step runs in (tools/colab_venv.sh). GNU make 4 keeps each lane's output together.
test:
	$(MAKE) -j2 $(OUTPUT_SYNC) install test-tools
	$(MAKE) prepare
	bash tools/run_tests.sh

test-tools:
	bash tools/system_deps.sh test
	$(MAKE) assets
	bash tools/colab_venv.sh >/dev/null

robust: install prepare
	bash tools/robust.sh

install: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml constraints.txt requirements-nodeps.txt
	@$(PYTHON) -c 'import sys; sys.exit(0 if (3, 11) <= sys.version_info[:2] < (3, 14) else \
	  "NLP Step by Step needs Python 3.11-3.13; this is " + sys.version.split()[0] + " (set PYTHON=python3.12, say)")'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -c constraints.txt -e '.[dev]'
	$(BIN)/pip install -q --no-deps -r requirements-nodeps.txt
	# seqeval (the tagging chapter's reference scorer) is only an sdist whose isolated build pulls a
	# setuptools_scm that no longer builds it: build it against an older one, without isolation.
	$(BIN)/pip install -q 'setuptools_scm<9' setuptools wheel
	$(BIN)/pip install -q --no-build-isolation seqeval==1.2.2
	$(BIN)/python -m ipykernel install --sys-prefix --name python3 --display-name "Python 3" >/dev/null
	touch $@

assets: _vendor/.stamp

_vendor/.stamp: package.json package-lock.json tools/vendor_assets.sh tools/widgets-config.js
	bash tools/system_deps.sh book
	npm ci --no-audit --no-fund --loglevel=error
	bash tools/vendor_assets.sh

# One-time conversions (e.g. SmolLM2 GGUF -> safetensors cache) so chapters start fast.
prepare: install
	@if [ -f nlp_helpers/data/smollm2.py ]; then $(BIN)/python -m nlp_helpers.data.smollm2 prepare; fi

serve:
	cd _build/html && $(BIN)/python -m http.server 8000 --bind 127.0.0.1

lab: install
	$(BIN)/jupyter lab book/

student: install
	$(BIN)/python -m tools.notebooks student student/ $$($(BIN)/python -m tools.toc_notebooks)
	@echo "Student notebooks (solutions removed) are in student/"

page: install
	@test -n "$(SLUG)" -a -n "$(PAGE)" -a -n "$(TITLE)" || { echo 'usage: make page SLUG=<chapter> PAGE=<page> TITLE="<title>"'; exit 2; }
	$(BIN)/python -m tools.notebooks new-page "$(SLUG)" "$(PAGE)" "$(TITLE)"

reader-path: install
	$(BIN)/python -m tools.reader_path

# Classroom: student copies plus a manifest of exercises and points (python -m tools.classroom, see the
# instructors' appendix), and the nbgrader/otter-grader environment the export tests use.
release: install
	$(BIN)/python -m tools.classroom release release/
	@echo "Student copies and release/manifest.json are in release/"

graders: install
	test -x .venv-graders/bin/python || $(PYTHON) -m venv .venv-graders
	.venv-graders/bin/pip install -q -c constraints.txt -e . -r requirements-classroom.txt
	@echo "nbgrader and otter-grader are in .venv-graders; run the export tests with NLP_GRADERS_BIN=$(CURDIR)/.venv-graders/bin"

benchmarks: install
	$(BIN)/python -m benchmarks.run_all

# The long runs behind the chapters' checkpoints (tools/checkpoint_recipes/), one after the other on one
# thread; each writes nlp_helpers/checkpoints/<name>.safetensors and its card <name>.json. Then the BERT
# chapter's fill-mask model (tools/train_mlm.py), with the command its card records, which writes
# nlp_helpers/data/files/bert_mlm/bert_mlm_delta.npz and bert_mlm_card.json.
checkpoints: install
	OMP_NUM_THREADS=1 $(BIN)/python -m tools.train_checkpoint --all
	OMP_NUM_THREADS=1 $(BIN)/python -m tools.train_mlm --epochs 16 --patience 1

clean:
	rm -rf _build _vendor student release .pytest_cache .venv-colab
