#!/usr/bin/env bash
# Builds the sensor tile firmware (firmware/avr) for the ATmega328P with
# Debian's gcc-avr and avr-libc, and the emulation harness
# (firmware/harness) with the host's gcc against Debian's libsimavr, into
# firmware/build/:
#
#	tile.elf, tile.hex   the firmware, for avrdude
#	tile-fault-*.elf     broken builds the harness's own tests run
#	sizes                its flash and RAM use ("flash N", "ram N", bytes),
#	                     checked against the chip's limits by firmware/avrsim
#	tileharness          runs tile.elf in simavr, bridged to a pty
#
# Install the toolchain first: bash ci/avr.sh
set -euo pipefail
cd "$(dirname "$0")"

out=build
mkdir -p "$out"

mcu=atmega328p
fcpu=14745600UL
cflags=(-mmcu=$mcu -DF_CPU=$fcpu -Os -std=gnu11 -Wall -Wextra -Werror
	-ffunction-sections -fdata-sections -Wl,--gc-sections)

avr-gcc "${cflags[@]}" -o "$out/tile.elf" avr/tile.c
avr-objcopy -O ihex -R .eeprom "$out/tile.elf" "$out/tile.hex"
# A deliberately broken build that releases the line before the last stop
# bit is out: the harness's check of the enable pin must catch it.
avr-gcc "${cflags[@]}" -DFAULT_EARLY_RELEASE -o "$out/tile-fault-early-release.elf" avr/tile.c

# Flash holds .text and .data's initial values; RAM holds .data, .bss and
# .noinit (the stack takes what is left).
read -r text data bss noinit < <(avr-size -A "$out/tile.elf" | awk '
	$1 == ".text" { t = $2 } $1 == ".data" { d = $2 }
	$1 == ".bss" { b = $2 } $1 == ".noinit" { n = $2 }
	END { print t + 0, d + 0, b + 0, n + 0 }')
flash=$((text + data))
ram=$((data + bss + noinit))
printf 'flash %d\nram %d\n' "$flash" "$ram" >"$out/sizes"
printf "firmware/build.sh: $out/tile.elf for the $mcu: flash $flash of 32768 bytes, RAM $ram of 2048 bytes (static; the stack takes the rest)\n"

gcc -O2 -Wall -Wextra -Werror -std=gnu11 $(pkg-config --cflags simavr) \
	-o "$out/tileharness" harness/harness.c \
	$(pkg-config --libs simavr) -lelf
echo "firmware/build.sh: $out/tileharness (simavr $(pkg-config --modversion simavr))"
