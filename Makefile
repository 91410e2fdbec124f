# The two commands of the README: `make demo` and `make test`.
# Each creates .venv, installs everything the project needs, and runs.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
RAGMETER := $(VENV)/bin/ragmeter
STAMP := $(VENV)/.installed

# The benchmark data mirror sits beside the checkout here; users may point it elsewhere.
export RAGMETER_DATA_MIRROR ?= $(abspath ../shared/data)
export HF_HUB_OFFLINE ?= 1
export TOKENIZERS_PARALLELISM ?= false

.PHONY: demo test install lint typecheck unit clean

$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# A pinned torch first: an unpinned one pulls several GB of CUDA packages.
	$(PY) -m pip install --quiet torch==2.13.0
	CMAKE_BUILD_PARALLEL_LEVEL=2 $(PY) -m pip install --quiet -e '.[all,dev]'
	touch $(STAMP)

install: $(STAMP)

demo: install
	$(RAGMETER) data info $(RAGMETER_DATA_MIRROR)/crag/crag_sample_10_with_pages.jsonl.bz2

lint: install
	$(VENV)/bin/ruff check src tests benchmarks
	$(VENV)/bin/ruff format --check src tests benchmarks

typecheck: install
	$(VENV)/bin/mypy

unit: install
	$(VENV)/bin/pytest

test: lint typecheck unit

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
