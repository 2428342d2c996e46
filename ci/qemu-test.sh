#!/usr/bin/env bash
# Cross-compiles every command for the Pi (linux/arm64 and linux/arm with
# GOARM=6, CGO disabled) and runs the tests of the packages that meet the
# Pi's hardware and storage — hw, firmware, journal — and the rules engine
# for arm64 under qemu user emulation: a smoke run (-short) by default,
# every test with -full (./test.sh -arm64-full). The referee is the
# engine's pure Go, tested natively; under qemu it would cost a minute. Installs Debian's
# qemu-user-static when qemu-aarch64-static is missing (needs root and the
# Debian archive).
#
# Usage, from anywhere in the repository:
#
#	bash ci/qemu-test.sh [-full] [extra go test flags…]
#
# Exit status: non-zero when a build or a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
short=-short
if [ "${1:-}" = -full ]; then
	short=
	shift
fi

if ! command -v qemu-aarch64-static >/dev/null; then
	echo "qemu-test: installing qemu-user-static" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq qemu-user-static >/dev/null
fi

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

echo "qemu-test: cross-compiling ./cmd/... for linux/arm64"
CGO_ENABLED=0 GOOS=linux GOARCH=arm64 go build -o "$out/arm64/" ./cmd/...
echo "qemu-test: cross-compiling ./cmd/... for linux/arm (GOARM=6)"
CGO_ENABLED=0 GOOS=linux GOARCH=arm GOARM=6 go build -o "$out/arm6/" ./cmd/...
CGO_ENABLED=0 GOOS=linux GOARCH=arm GOARM=6 go build ./...

pkgs=(./hw/... ./firmware/... ./engine/... ./journal/...)
echo "qemu-test: go test ${short:-(every test)} ${pkgs[*]} on linux/arm64 under qemu"
CGO_ENABLED=0 GOOS=linux GOARCH=arm64 go test $short -exec qemu-aarch64-static "$@" "${pkgs[@]}"
