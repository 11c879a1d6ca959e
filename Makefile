# The README's two commands are the contract: `make run` and `make test` create .venv on first use.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test lint bench validate dist translations lupdate clean

# Qt Linguist sources (committed) -> compiled catalogs (build products, gitignored). See docs/i18n.md.
TS_FILES := $(wildcard resources/translations/*.ts)
QM_FILES := $(TS_FILES:.ts=.qm)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP) translations
	$(BIN)/vramgui

# The linters run first, then the tests run whatever the linters said (one CI run reports both); fails if either does.
# The suite runs on TEST_WORKERS processes (pytest-xdist; `TEST_WORKERS=0` runs it in this process), each test
# file on one worker (--dist loadfile: a module's fixtures are built once, and the files that run linters or
# subprocesses never race one another). The PyInstaller build (marker `frozen`) is `make test-frozen`.
TEST_WORKERS ?= auto
test: $(STAMP) translations
	@lint=0; $(MAKE) --no-print-directory lint || lint=1; \
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -m 'not frozen' -n $(TEST_WORKERS) --dist loadfile \
	  $(PYTEST_ARGS) || exit $$?; \
	if [ $$lint != 0 ]; then echo "make test: the tests passed but \`make lint\` failed (see above)" >&2; exit 1; fi

# The standalone binary built by PyInstaller and smoke-tested (tests/packaging/test_frozen.py; a few minutes).
.PHONY: test-frozen
test-frozen: $(STAMP) translations
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest -m frozen tests/packaging/test_frozen.py $(PYTEST_ARGS)

# Static checks, configured in pyproject.toml: ruff (style, bugs, imports), mypy (strict on core and io),
# import-linter (the layers app > views > presenters > io > core, Qt-free core/io/CLI, no import cycle).
# Every tool runs even when an earlier one fails, so one run lists all findings.
lint: $(STAMP)
	@status=0; \
	echo "== ruff"; $(BIN)/ruff check . || status=1; \
	echo "== mypy"; $(BIN)/mypy || status=1; \
	echo "== import-linter"; $(BIN)/lint-imports || status=1; \
	exit $$status

# BENCH_ARGS: which benchmarks (bench_core bench_gui ...); --suite times `make test`'s pytest run (alone: only that).
bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m bench $(BENCH_ARGS)

# The fuzz tests at full strength (docs/fuzzing.md): VRAMGUI_FUZZ examples shared among the hypothesis tests of
# tests/fuzz, the whole run stopped after FUZZ_BUDGET seconds (a run that needs longer has found a hang).
VRAMGUI_FUZZ ?= 20000
FUZZ_BUDGET ?= 1800
.PHONY: fuzz
fuzz: $(STAMP)
	QT_QPA_PLATFORM=offscreen VRAMGUI_FUZZ=$(VRAMGUI_FUZZ) timeout $(FUZZ_BUDGET) $(BIN)/python -m pytest tests/fuzz \
	  -q -p no:cacheprovider -o faulthandler_timeout=$(FUZZ_BUDGET) --hypothesis-show-statistics $(PYTEST_ARGS)

translations: $(QM_FILES)

resources/translations/%.qm: resources/translations/%.ts | $(STAMP)
	$(BIN)/pyside6-lrelease $< -qm $@

# Re-extract every tr() string from the code into the .ts files (keeps existing translations).
lupdate: | $(STAMP)
	for ts in $(TS_FILES); do \
	  lang=$$(basename $$ts .ts | sed 's/^vramgui_//'); \
	  $(BIN)/pyside6-lupdate $$(find vramgui -name '*.py' | sort) -no-obsolete -locations none \
	    -source-language en -target-language $$lang -ts $$ts || exit 1; \
	done

clean:
	rm -rf $(VENV) .venv-dist .venv-validate build dist *.egg-info .pytest_cache resources/translations/*.qm \
	  .mypy_cache .ruff_cache .import_linter_cache

# Standalone binaries (PyInstaller; docs/packaging.md). Built from a clean virtual environment so that only the
# app's own dependencies can end up in the bundle; prints the size of the result. On Linux, libraries Qt's platform
# plugins need that this machine lacks (libxcb-icccm4, ...) are first fetched into build/xcb-libs (Debian packages,
# unpacked, nothing installed; a no-op when all are installed): the spec bundles them, or stops and names them.
.PHONY: dist-onefile
DIST_VENV ?= .venv-dist
DIST_BIN  := $(DIST_VENV)/bin

$(DIST_VENV)/.dist-env: pyproject.toml
	rm -rf $(DIST_VENV)
	$(PYTHON) -m venv $(DIST_VENV)
	$(DIST_BIN)/python -m pip install --quiet --upgrade pip
	$(DIST_BIN)/python -m pip install --quiet -e '.[dist]'
	touch $@

dist dist-onefile: $(DIST_VENV)/.dist-env
	for ts in $(TS_FILES); do $(DIST_BIN)/pyside6-lrelease -silent $$ts -qm $${ts%.ts}.qm || exit 1; done
	$(DIST_BIN)/python packaging/xcb_bundle.py fetch --dest build/xcb-libs
	$(DIST_BIN)/python -m PyInstaller --noconfirm --clean --log-level WARN --distpath dist \
	  --workpath build/pyinstaller packaging/vramgui.spec $(if $(filter dist-onefile,$@),-- --onefile)
	$(DIST_BIN)/python packaging/dist_size.py $(if $(filter dist-onefile,$@),--onefile)

# Measurement-based validation (bench/validate -> docs/accuracy.md; docs/activations.md). Its own virtual
# environment: torch and transformers are never dependencies of the app, and this is not part of `make test`.
# torch==2.13.0 takes the CPU wheel (a plain `torch` would pull a multi-GB CUDA build); the project is installed
# without its GUI dependencies (the harness only imports vramgui.core and vramgui.io). Fails if any figure is off
# (see docs).
VALIDATE_VENV ?= .venv-validate
VALIDATE_BIN  := $(VALIDATE_VENV)/bin
TRANSFORMERS_VERSION ?= 5.24.0

$(VALIDATE_VENV)/.validate-env: pyproject.toml
	test -x $(VALIDATE_BIN)/python || $(PYTHON) -m venv $(VALIDATE_VENV)
	$(VALIDATE_BIN)/python -m pip install --quiet --upgrade pip
	$(VALIDATE_BIN)/python -m pip install --quiet torch==2.13.0 transformers==$(TRANSFORMERS_VERSION)
	$(VALIDATE_BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

validate: $(VALIDATE_VENV)/.validate-env
	$(VALIDATE_BIN)/python -m bench.validate
