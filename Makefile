# Fieldtest — set-up, build, run and test.
#
#   make run    install what is missing, build (release) and run the bundled scenario suite
#   make test   install what is missing, build and run the test suite
#   make test-slurm  (root) run the README's Slurm array job on a one-node cluster started on this machine
#   make bench  release benchmarks with Python baselines (installed from PyPI when missing) measured in the same run

SWIFT ?= swift
SYSTEM_PACKAGES := libgsl-dev libsqlite3-dev pkg-config
FIELDTEST_RELEASE := .build/release/fieldtest

.PHONY: all deps build release run test test-slurm bench bench-deps verify clean

all: build

# Installs the system libraries when they are missing: with apt-get when root,
# otherwise it prints the exact command and stops.
deps:
	@missing=""; \
	pkg-config --exists gsl 2>/dev/null || missing="$$missing libgsl-dev"; \
	[ -f /usr/include/sqlite3.h ] || missing="$$missing libsqlite3-dev"; \
	command -v pkg-config >/dev/null 2>&1 || missing="$$missing pkg-config"; \
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
	$(SWIFT) build -c release --product fieldtest

run: release
	$(FIELDTEST_RELEASE) datasets verify
	# The committed baselines' latency was measured on the developers' machine: here latency rows are
	# checked against their thresholds, accuracy/count/rate rows against the baselines.
	$(FIELDTEST_RELEASE) run Scenarios/*.yaml --baseline Results/baselines --compare-latency never

verify: release
	$(FIELDTEST_RELEASE) datasets verify

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

# Installs slurm-wlm and munge when missing, starts munged, slurmctld and slurmd (root, state in a
# temporary folder), runs deploy/slurm/sweep.sbatch, merges the shards and compares them with a
# single-machine run; stops the daemons it started on exit (deploy/slurm/test-cluster.sh).
test-slurm: release
	deploy/slurm/test-cluster.sh

# The Python baselines the benchmarks compare against (PyPI), installed when missing.
BENCH_PYTHON := vaderSentiment scikit-learn numpy networkx pvlib astral simpy

bench-deps:
	@python3 -c "import vaderSentiment, sklearn, numpy, networkx, pvlib, astral, simpy" 2>/dev/null || \
	  python3 -m pip install -q $(BENCH_PYTHON)

bench: release bench-deps
	$(FIELDTEST_RELEASE) bench all

clean:
	rm -rf .build
