#!/usr/bin/env bash
# The project's test command (README): installs and starts what the tests
# need — Debian's mosquitto for the feed's tests against a standard broker,
# Debian's chromium for the dashboard's browser test, qemu-user-static for
# the arm64 run, gcc-avr and simavr for the tile firmware, lintian for the
# packages — builds the tile firmware and its emulation harness, then vets,
# cross-compiles for the Pi and runs a smoke test of the Pi's packages under
# qemu, runs every test (the firmware's in simavr among them), the fuzz
# targets briefly, and builds and checks the Debian packages. About 300
# CPU-seconds with a warm build cache: 6 to 7 minutes on 2 cores that other
# work keeps busy.
#
# Usage: ./test.sh [-full] [-arm64-full] [extra go test flags…]
#   -arm64-full  every test of the qemu run, not its -short smoke test
#   -full        -arm64-full, and the long tests (PARCHIS_TEST_LONG=1:
#                the daemon stopped 32 times, a whole game in the browser)
set -euo pipefail
cd "$(dirname "$0")"
arm64=
while [ $# -gt 0 ]; do
	case $1 in
	-full) arm64=-full; export PARCHIS_TEST_LONG=1 ;;
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

echo "test.sh: the Pi's builds, and the Pi's packages' tests under qemu (arm64)"
bash ci/qemu-test.sh $arm64

# Two streams side by side, one package at a time in each: the tests that
# time a browser, a broker restart or a daemon killed and restarted run in
# the first, never two at once, then the packages are built and checked
# (ci/package.sh) and the fuzz targets run briefly (FUZZTIME=10m bash
# ci/fuzz.sh runs them longer); the other packages' tests, busy with the
# CPU, run in the second, whose output follows the first's.
timed=(./cmd/... ./judges/... ./broadcast/...)
mapfile -t others < <(go list ./... | grep -v -e /cmd/ -e /judges -e /broadcast)
echo "test.sh: go test -p 1 ${timed[*]}, the packages and fuzzing, beside the other packages' tests"
log=$(mktemp)
trap 'bash ci/mosquitto.sh clean >/dev/null 2>&1 || true; rm -f "$log"' EXIT
go test -p 1 -timeout 30m "$@" "${others[@]}" >"$log" 2>&1 &
second=$!
status=0
go test -p 1 -timeout 30m "$@" "${timed[@]}" || status=1
bash ci/package.sh || status=1
FUZZPARALLEL=1 bash ci/fuzz.sh || status=1
wait $second || status=1
cat "$log"
exit $status
