# Fieldtest — set-up, build, run and test.
#
#   make run    install what is missing, build (release) and run the bundled scenario suite
#   make test   install what is missing, build and run the fast test tier (what to run before each change)
#   make test-all  what CI runs (.ci/run): build, every Swift test (the heavy tier too, FIELDTEST_TEST_TIER=all,
#               with the shipped model's retrain check), lint, test-browser, and the Slurm sweep when root
#   make test-browser  render the bundled suite's HTML report in headless Chromium and check it (installs chromium when root)
#   make test-slurm  (root) run the README's Slurm array job on a one-node cluster started on this machine
#   make bench  release benchmarks (fieldtest-bench) with Python baselines (installed from PyPI when missing) measured in the same run
#   make format rewrite the sources with swift-format (.swift-format); make lint checks them (CI runs it)
#   make docs   DocC documentation of the library modules into .build/docs
#   make install  release build into $(PREFIX)/bin/fieldtest (PREFIX=/usr/local) with its data in $(PREFIX)/share/fieldtest
#   make uninstall  remove what make install put there
#   make example-package  build and test Examples/SwiftSentimentSystem (a package depending on this one by path)
#   make examples  install the example systems' Python libraries (PyPI) when missing and run their tests

SWIFT ?= swift
SYSTEM_PACKAGES := libgsl-dev libsqlite3-dev zlib1g-dev libssl-dev pkg-config libxml2-utils
FIELDTEST_RELEASE := .build/release/fieldtest
FIELDTEST_BENCH := .build/release/fieldtest-bench
# Release builds link the Swift runtime and Foundation statically: each command then starts in about
# 6 ms instead of 9 (the dynamic loader no longer binds their symbols at every start), which is most
# of what a short batch command such as `route` on a small campus costs before its first query.
RELEASE_FLAGS := -c release --static-swift-stdlib

.PHONY: fuzz all deps build release install uninstall run test test-all test-browser test-slurm bench bench-deps verify clean format lint docs examples example-package

all: build

# Installs the system libraries when they are missing: with apt-get when root,
# otherwise it prints the exact command and stops.
deps:
	@missing=""; \
	pkg-config --exists gsl 2>/dev/null || missing="$$missing libgsl-dev"; \
	[ -f /usr/include/sqlite3.h ] || missing="$$missing libsqlite3-dev"; \
	[ -f /usr/include/zlib.h ] || missing="$$missing zlib1g-dev"; \
	[ -f /usr/include/openssl/evp.h ] || pkg-config --exists libcrypto 2>/dev/null || missing="$$missing libssl-dev"; \
	command -v pkg-config >/dev/null 2>&1 || missing="$$missing pkg-config"; \
	command -v xmllint >/dev/null 2>&1 || missing="$$missing libxml2-utils"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = "0" ]; then \
	    echo "installing:$$missing" >&2; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) >&2 || exit 1; \
	  else \
	    echo "missing system packages:$$missing" >&2; \
	    echo "run: sudo apt-get install -y$$missing" >&2; exit 1; \
	  fi; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build $(RELEASE_FLAGS) --product fieldtest

run: release
	$(FIELDTEST_RELEASE) datasets verify
	# The committed baselines' latency was measured on the developers' machine: here latency rows are
	# checked against their thresholds, accuracy/count/rate rows against the baselines.
	# Results/runs/report.html: one page of the whole suite, readable without the terminal (docs/reports.md).
	$(FIELDTEST_RELEASE) run Scenarios/*.yaml --baseline Results/baselines --compare-latency never \
	  --report Results/runs/report.html

# make install PREFIX=DIR [DESTDIR=STAGE]: the release executable in PREFIX/bin, and what it reads at run
# time in PREFIX/share/fieldtest: Datasets/ (with the sentiment model and lexicons), the bundled Scenarios/,
# the licences and COMMIT (the commit it was built from, for run.json's tool_commit). The executable finds
# PREFIX/share/fieldtest beside its own folder (fieldtest datasets where), so the checkout may go. Each
# folder is copied beside its target and renamed over it, so an interrupted install leaves the old one.
PREFIX ?= /usr/local
DESTDIR ?=
SHARE_DIR = $(DESTDIR)$(PREFIX)/share/fieldtest

install: release
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(SHARE_DIR)"
	set -e; for d in Datasets Scenarios; do \
	  rm -rf "$(SHARE_DIR)/.$$d.new" "$(SHARE_DIR)/.$$d.old"; \
	  cp -R "$$d" "$(SHARE_DIR)/.$$d.new"; \
	  if [ -e "$(SHARE_DIR)/$$d" ]; then mv "$(SHARE_DIR)/$$d" "$(SHARE_DIR)/.$$d.old"; fi; \
	  mv "$(SHARE_DIR)/.$$d.new" "$(SHARE_DIR)/$$d"; rm -rf "$(SHARE_DIR)/.$$d.old"; \
	done
	install -m 0644 LICENSE "$(SHARE_DIR)/LICENSE"
	(git rev-parse HEAD 2>/dev/null || echo unknown) > "$(SHARE_DIR)/COMMIT"
	install -m 0755 $(FIELDTEST_RELEASE) "$(DESTDIR)$(PREFIX)/bin/.fieldtest.new"
	mv "$(DESTDIR)$(PREFIX)/bin/.fieldtest.new" "$(DESTDIR)$(PREFIX)/bin/fieldtest"
	@echo "installed $(DESTDIR)$(PREFIX)/bin/fieldtest; its data: $(SHARE_DIR)"

uninstall:
	rm -f "$(DESTDIR)$(PREFIX)/bin/fieldtest"
	rm -rf "$(SHARE_DIR)"

verify: release
	$(FIELDTEST_RELEASE) datasets verify

# The tests run on an optimised build with `@testable` access (-enable-testing), kept in its own folder so
# that it never invalidates the debug or release builds; the test targets themselves compile unoptimised
# (Package.swift). On the 2-core machine it compiles from scratch in 6½–8 minutes and runs the fast tier
# in about 2 (debug: 9), every test in under 4 (debug: 19); CONTRIBUTING.md has the figures. `swift test`
# on the debug build runs the same tests.
TEST_BUILD_FLAGS := -c release -Xswiftc -enable-testing --scratch-path .build/tests
FIELDTEST_TESTED := .build/tests/release/fieldtest

# The fast tier: every test but those marked `.heavy` (kill-and-resume, the sweeps and many-binary CLI suites
# beyond a smoke set, long fuzzing, the full retrain); CONTRIBUTING.md lists the tiers and their times.
# The tests' temporary folders go into $(TEST_TMP), emptied before each run, not into the system's /tmp.
TEST_TMP := .build/tests/tmp
define fresh_test_tmp
	rm -rf $(TEST_TMP) && mkdir -p $(TEST_TMP)
endef

test: deps
	$(SWIFT) build $(TEST_BUILD_FLAGS) --build-tests
	$(fresh_test_tmp)
	TMPDIR="$$PWD/$(TEST_TMP)" $(SWIFT) test $(TEST_BUILD_FLAGS) --skip-build

# Everything CI checks, in one command, on the one test build: the browser check and the Slurm sweep (which
# needs root: it starts the daemons) run its fieldtest binary, so no other build is made.
test-all: deps
	$(SWIFT) build $(TEST_BUILD_FLAGS) --build-tests
	$(fresh_test_tmp)
	TMPDIR="$$PWD/$(TEST_TMP)" FIELDTEST_TEST_TIER=all $(SWIFT) test $(TEST_BUILD_FLAGS) --skip-build
	$(MAKE) lint
	$(call browser_check,$(FIELDTEST_TESTED))
	@if [ "$$(id -u)" = "0" ]; then \
	  FIELDTEST="$$PWD/$(FIELDTEST_TESTED)" SLURM_TEST_TIMEOUT=420 deploy/slurm/test-cluster.sh; \
	else echo "test-all: the Slurm sweep is skipped (needs root: make test-slurm as root)"; fi

# Seeded mutation fuzzing of every parser (Tests/Fuzz): FUZZ_SECONDS per target, FUZZ_SEED to
# repeat a run (default: from the clock). make test runs a short, fixed-seed pass of the same tests.
FUZZ_SECONDS ?= 60
fuzz: deps
	$(SWIFT) build --build-tests
	FUZZ_SECONDS=$(FUZZ_SECONDS) $(if $(FUZZ_SEED),FUZZ_SEED=$(FUZZ_SEED)) $(SWIFT) test --skip-build --filter FuzzTests

# Runs the bundled suite (two scenarios at a time), writes its report with `fieldtest report`, renders it in
# headless Chromium at desktop and phone widths and fails on console errors, a blank page or text overflowing
# its box (Tests/Browser/check_report.py, Python's standard library only). Installs Debian's chromium when
# missing (apt-get when root). Screenshots are left in $(BROWSER_OUT). A scenario may exit 1 (a debug build
# can miss a latency threshold); 2 or more fails. make test-browser uses the debug build; test-all the test build.
BROWSER_OUT := .build/browser-test

define browser_check
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = "0" ]; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >&2 || exit 1; \
	  else echo "chromium is missing; run: sudo apt-get install -y chromium" >&2; exit 1; fi; }
	rm -rf $(BROWSER_OUT)
	ls Scenarios/*.yaml | xargs -P 2 -I{} sh -c '$(1) run {} --baseline Results/baselines \
	  --compare-latency never --quiet --out $(BROWSER_OUT)/runs >/dev/null; [ $$? -le 1 ]'
	$(1) report $(BROWSER_OUT)/runs --output $(BROWSER_OUT)/report.html
	python3 Tests/Browser/check_report.py $(BROWSER_OUT)/report.html --screenshots $(BROWSER_OUT)
endef

test-browser: build
	$(call browser_check,.build/debug/fieldtest)

# Installs slurm-wlm and munge when missing, starts munged, slurmctld and slurmd (root, state in a
# temporary folder), submits deploy/slurm/submit.sh (array job + merge job) and compares the merge with a
# single-machine run; stops the daemons it started on exit (deploy/slurm/test-cluster.sh).
test-slurm: release
	deploy/slurm/test-cluster.sh

# The Python baselines the benchmarks compare against (PyPI), installed when missing.
BENCH_PYTHON := vaderSentiment scikit-learn numpy networkx pvlib astral simpy

bench-deps:
	@python3 -c "import vaderSentiment, sklearn, numpy, networkx, pvlib, astral, simpy" 2>/dev/null || \
	  python3 -m pip install -q $(BENCH_PYTHON)

# BENCH_FLAGS=--check makes it exit 1 when a stated goal is not met; --format csv|json writes records with the machine's description.
bench: deps bench-deps
	$(SWIFT) build $(RELEASE_FLAGS) --product fieldtest-bench
	$(SWIFT) build $(RELEASE_FLAGS) --product fieldtest
	$(FIELDTEST_BENCH) all $(BENCH_FLAGS)

# The example systems under test (Examples/systems): their libraries are installed only here.
EXAMPLES_PYTHON := vaderSentiment astral networkx scikit-learn numpy

examples: deps
	@python3 -c "import vaderSentiment, astral, networkx, sklearn, numpy" 2>/dev/null || \
	  python3 -m pip install -q $(EXAMPLES_PYTHON)
	$(SWIFT) build --build-tests
	FIELDTEST_EXAMPLES=1 $(SWIFT) test --skip-build --filter ExampleSystemsTests

# The example Swift package (Examples/SwiftSentimentSystem) depends on this checkout by path and runs a
# bundled scenario with its own classifier from its own tests. Its own build folder builds every module
# again (about 10 minutes in debug on 2 cores), so CI does not run it on every change.
example-package: deps
	cd Examples/SwiftSentimentSystem && $(SWIFT) build --build-tests && $(SWIFT) test --skip-build

SWIFT_FORMAT_PATHS := Package.swift Sources Tests

format:
	$(SWIFT) format format --in-place --recursive --parallel $(SWIFT_FORMAT_PATHS)

lint:
	$(SWIFT) format lint --strict --recursive --parallel $(SWIFT_FORMAT_PATHS)

# Every target of every library product in Package.swift, so a new product is documented without an edit
# here; the articles' code is Sources/Examples (built with the package, run by ExamplesCLITests).
DOC_TARGETS := $(shell sed -n 's/.*\.library(name: "[^"]*", targets: \[\([^]]*\)\]).*/\1/p' Package.swift | tr -d '" ' | tr ',' ' ')

docs: deps
	@mkdir -p .build/docs
	for t in $(DOC_TARGETS); do \
	  $(SWIFT) package --allow-writing-to-directory .build/docs/$$t generate-documentation --target $$t \
	    --disable-indexing --output-path .build/docs/$$t || exit 1; \
	done
	@echo "DocC archives in .build/docs/<module>"

clean:
	rm -rf .build
