#!/usr/bin/env bash
# Installs what the tile firmware needs to be built and emulated: Debian's
# gcc-avr and avr-libc (the ATmega328P toolchain), simavr and libsimavr-dev
# (the emulator the harness links), libelf-dev and pkg-config. Does nothing
# when they are already there. Then: bash firmware/build.sh
set -euo pipefail
need=()
command -v avr-gcc >/dev/null 2>&1 || need+=(gcc-avr)
[ -f /usr/lib/avr/include/avr/io.h ] || need+=(avr-libc)
command -v avr-size >/dev/null 2>&1 || need+=(binutils-avr)
[ -f /usr/include/simavr/sim_avr.h ] || need+=(libsimavr-dev simavr)
[ -f /usr/include/libelf.h ] || need+=(libelf-dev)
command -v pkg-config >/dev/null 2>&1 || need+=(pkg-config)
command -v gcc >/dev/null 2>&1 || need+=(gcc libc6-dev)
if [ ${#need[@]} -eq 0 ]; then
	echo "avr: $(avr-gcc --version | head -1); simavr $(pkg-config --modversion simavr)"
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	SUDO="sudo"
fi
echo "avr: installing ${need[*]}" >&2
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${need[@]}"
echo "avr: $(avr-gcc --version | head -1); simavr $(pkg-config --modversion simavr)"
