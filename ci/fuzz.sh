#!/usr/bin/env bash
# Runs every fuzz target of the project for a while each: briefly in the
# test command (FUZZTIME, default 2s), longer on demand, e.g.
#   FUZZTIME=10m bash ci/fuzz.sh
#   FUZZTIME=1h bash ci/fuzz.sh ./journal      (one package's targets)
# New failing inputs are kept under each package's testdata/fuzz, as go
# test does, and then run by the ordinary tests.
set -euo pipefail
cd "$(dirname "$0")/.."
fuzztime=${FUZZTIME:-2s}
pkgs=("$@")
if [ ${#pkgs[@]} -eq 0 ]; then
	mapfile -t pkgs < <(grep -rl --include='*_test.go' '^func Fuzz' . | xargs -n1 dirname | sort -u)
fi
for pkg in "${pkgs[@]}"; do
	for target in $(cat "$pkg"/*_test.go | grep '^func Fuzz' | sed 's/^func \(Fuzz[A-Za-z0-9_]*\).*/\1/' | sort -u); do
		echo "fuzz.sh: $pkg $target for $fuzztime"
		go test -run '^$' -fuzz "^${target}\$" -fuzztime "$fuzztime" "$pkg"
	done
done
