# The README's two commands are the contract: `make run` and `make test` create .venv on first use.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: run test bench validate dist translations lupdate clean

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

test: $(STAMP) translations
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(BIN)/python -m bench

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
	rm -rf $(VENV) build dist *.egg-info .pytest_cache
