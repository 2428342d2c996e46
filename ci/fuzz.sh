#!/usr/bin/env bash
# Runs every fuzz target of the project for a while each: briefly in the
# test command (FUZZTIME, default 1s; 20s under ./test.sh -full), longer
# on demand, e.g.
#   FUZZTIME=10m bash ci/fuzz.sh
#   FUZZTIME=1h bash ci/fuzz.sh ./journal      (one package's targets)
# FUZZPARALLEL sets the fuzzing workers of each target (default: one per
# CPU); ./test.sh uses one, as other tests run beside.
# Each package's test binary is built once, with the fuzzing
# instrumentation (go test -c -fuzz), and run for each of its targets as
# go test -fuzz would run it: in the package's folder, with go's fuzzing
# cache (the inputs found before, replayed first); a go test -fuzz per
# target linked the binary again each time, two thirds of the step.
# New failing inputs are kept under each package's testdata/fuzz, as go
# test does, and then run by the ordinary tests.
#
# Go 1.26's fuzzing coordinator can end a run that found nothing with a
# bare "context deadline exceeded" when -fuzztime runs out while a worker
# is busy (golang/go#75804, fixed in Go 1.27). Such a run wrote no failing
# input; it is told apart from a finding by that, and by replaying the
# target's corpus, which must pass. Any other failure fails the script.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-1s}
parallel=${FUZZPARALLEL:-$(nproc)}
pkgs=("$@")
if [ ${#pkgs[@]} -eq 0 ]; then
	mapfile -t pkgs < <(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u)
fi
count() { if [ -d "$1" ]; then ls "$1" | wc -l; else echo 0; fi; }
out=$(mktemp)
bins=$(mktemp -d)
trap 'rm -rf "$out" "$bins"' EXIT
cache=$(go env GOCACHE)/fuzz
for pkg in "${pkgs[@]}"; do
	bin=$bins/$(echo "$pkg" | tr -c 'a-zA-Z0-9\n' _).test
	go test -c -fuzz . -o "$bin" "$pkg"
	importpath=$(go list "$pkg")
	for target in $(cat "$pkg"/*_test.go | grep '^func Fuzz' | sed 's/^func \(Fuzz[A-Za-z0-9_]*\).*/\1/' | sort -u); do
		echo "fuzz.sh: $pkg $target for $fuzztime"
		corpus="$pkg/testdata/fuzz/$target"
		before=$(count "$corpus")
		if (cd "$pkg" && "$bin" -test.run '^$' -test.fuzz "^${target}\$" -test.fuzztime "$fuzztime" -test.parallel "$parallel" -test.fuzzcachedir "$cache/$importpath") 2>&1 | tee "$out"; then
			continue
		fi
		after=$(count "$corpus")
		if [ "$after" -eq "$before" ] && grep -q '^    context deadline exceeded$' "$out" && ! grep -q 'Failing input written' "$out"; then
			echo "fuzz.sh: $target: the run ended on Go's deadline race (golang/go#75804), no failing input; replaying its corpus"
			go test -run "^${target}\$" "$pkg"
			continue
		fi
		echo "fuzz.sh: $pkg $target failed" >&2
		exit 1
	done
done
