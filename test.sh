#!/usr/bin/env bash
# The project's test command (README): installs and starts what the tests
# need — Debian's mosquitto for the feed's tests against a standard broker,
# Debian's chromium for the dashboard's browser test, qemu-user-static for
# the arm64 run, gcc-avr and simavr for the tile firmware, lintian for the
# packages — builds the tile firmware and its emulation harness, then vets,
# cross-compiles for the Pi and runs a smoke test of the Pi's packages under
# qemu, runs every test (the firmware's in simavr among them), the fuzz
# targets briefly, and builds and checks the Debian packages, in four lanes
# side by side. About 390 CPU-seconds with a warm build cache: 3 minutes
# 40 seconds on 2 otherwise quiet cores, longer when other work keeps them
# busy (README).
#
# Usage: ./test.sh [-full] [-arm64-full] [extra go test flags…]
#   -arm64-full  every test of the qemu run, not its -short smoke test
#   -full        -arm64-full, the long tests (PARCHIS_TEST_LONG=1: the
#                daemon stopped 32 times, a whole game in the browser),
#                and 20 s of fuzzing per target instead of 1 s
set -euo pipefail
cd "$(dirname "$0")"
arm64=
fuzztime=1s
while [ $# -gt 0 ]; do
	case $1 in
	-full) arm64=-full fuzztime=20s; export PARCHIS_TEST_LONG=1 ;;
	-arm64-full) arm64=-full ;;
	*) break ;;
	esac
	shift
done

bash ci/chromium.sh
bash ci/avr.sh
echo "test.sh: the tile firmware and its emulation harness"
bash firmware/build.sh
# The firmware's tests fail, rather than skip, without the build.
export PARCHIS_FIRMWARE_REQUIRED=1
eval "$(bash ci/mosquitto.sh start)"
trap 'bash ci/mosquitto.sh clean >/dev/null 2>&1 || true' EXIT

echo "test.sh: gofmt and go vet"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
	echo "test.sh: not gofmt'ed: $unformatted" >&2
	exit 1
fi
go vet ./...

# Four lanes side by side, each one's log shown, in this order, once it
# is done, with its time. Their work is shared out by what it costs
# (README, Development): the tests that wait on daemons, brokers and
# browsers take a fraction of a core for minutes, the others keep one
# busy, so each lane holds some of both and they end together.
#   daemon     the daemon's, the CLI's and the feed's tests (the daemon
#              tests, t.Parallel, four at a time), then vision/learned's
#   dashboard  the dashboard's tests (browser tests), then the fuzz
#              targets (FUZZTIME each: 1s, 20s with -full;
#              FUZZTIME=10m bash ci/fuzz.sh runs them longer)
#   packages   every other package's tests
#   pi         the Pi's builds and smoke test under qemu, the Debian
#              packages built and checked (ci/package.sh)
mapfile -t others < <(go list ./... | grep -v -e /cmd/ -e /judges -e /broadcast -e /vision/learned)
logs=$(mktemp -d)
trap 'bash ci/mosquitto.sh clean >/dev/null 2>&1 || true; rm -rf "$logs"' EXIT
lane() {
	local name=$1
	shift
	local start=$SECONDS status=0
	"$@" >"$logs/$name" 2>&1 || status=1
	echo "test.sh: lane $name: $((SECONDS - start)) s$([ $status -eq 0 ] || echo ", FAILED")" >>"$logs/$name"
	return $status
}
dashboard() {
	local status=0
	go test -p 1 -timeout 30m "$@" ./judges/... || status=1
	FUZZTIME=${FUZZTIME:-$fuzztime} FUZZPARALLEL=1 bash ci/fuzz.sh || status=1
	return $status
}
pi() {
	echo "test.sh: the Pi's builds, and the Pi's packages' tests under qemu (arm64)"
	local status=0
	bash ci/qemu-test.sh $arm64 || status=1
	bash ci/package.sh || status=1
	return $status
}
echo "test.sh: four lanes: daemon, dashboard, packages, pi"
declare -A pid
lane daemon go test -p 1 -parallel 4 -timeout 30m "$@" ./cmd/... ./broadcast/... ./vision/learned &
pid[daemon]=$!
lane dashboard dashboard "$@" &
pid[dashboard]=$!
lane packages go test -p 1 -timeout 30m "$@" "${others[@]}" &
pid[packages]=$!
lane pi pi &
pid[pi]=$!
status=0
for name in daemon dashboard packages pi; do
	wait "${pid[$name]}" || status=1
	cat "$logs/$name"
done
exit $status
