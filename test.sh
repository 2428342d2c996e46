#!/usr/bin/env bash
# The project's test command (README): installs and starts what the tests
# need — Debian's mosquitto for the feed's tests against a standard broker,
# Debian's chromium for the dashboard's browser test, qemu-user-static for
# the arm64 run, gcc-avr and simavr for the tile firmware — builds the tile
# firmware and its emulation harness, then vets, runs every test (the
# firmware's in simavr among them), and cross-compiles for the Pi and runs
# the hw, firmware and engine tests there under qemu.
#
# Usage: ./test.sh [extra go test flags…]
set -euo pipefail
cd "$(dirname "$0")"

bash ci/chromium.sh
bash ci/avr.sh
echo "test.sh: the tile firmware and its emulation harness"
bash firmware/build.sh
# The firmware's tests fail, rather than skip, without the build.
export PARCHIS_FIRMWARE_REQUIRED=1
eval "$(bash ci/mosquitto.sh start)"
trap 'bash ci/mosquitto.sh stop >/dev/null 2>&1 || true' EXIT

echo "test.sh: gofmt and go vet"
unformatted=$(gofmt -l .)
if [ -n "$unformatted" ]; then
	echo "test.sh: not gofmt'ed: $unformatted" >&2
	exit 1
fi
go vet ./...

echo "test.sh: the Pi's builds, and the hw, firmware and engine tests under qemu (arm64)"
bash ci/qemu-test.sh

# One package at a time: several tests time a browser, a broker restart or
# a daemon killed and restarted, and the machines are small.
echo "test.sh: go test -p 1 ./..."
go test -p 1 "$@" ./...

# Every parser of outside input has a fuzz target: each runs briefly here
# (FUZZTIME=10m bash ci/fuzz.sh runs them longer).
echo "test.sh: fuzz targets, ${FUZZTIME:-2s} each"
bash ci/fuzz.sh
