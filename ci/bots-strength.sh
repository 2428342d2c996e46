#!/usr/bin/env bash
# Measures the bots' strength in pair games (not run by test.sh: at the mc
# bot's default budget a game takes 15 to 40 s of one core). Plays
# CHUNKS chunks of GAMES games of PLAYERS (Y,B,R,G: Yellow and Red against
# Blue and Green), each chunk with its own seed, and prints after each the
# running total of YR's wins with its 95% interval, so that a run stopped
# early still says what it measured. Chunk i plays with seed FIRST+i-1
# (FIRST defaults to 1001): runs with other FIRSTs play other games, and
# their totals add up (parchis speaks English to it: LC_ALL=C,
# whatever the locale, for the sed below). E.g.
#   bash ci/bots-strength.sh mc,random,mc,random 10 10
#   bash ci/bots-strength.sh mc,greedy,mc,greedy 100 10   (1,000 games)
#   bash ci/bots-strength.sh mc,greedy,mc,greedy 10 10 5001 (100 more)
set -euo pipefail
cd "$(dirname "$0")/.."
players=${1:-mc,greedy,mc,greedy}
chunks=${2:-10}
games=${3:-10}
first=${4:-1001}
bin=$(mktemp -d)/parchis
trap 'rm -rf "$(dirname "$bin")"' EXIT
go build -o "$bin" ./cmd/parchis
won=0
played=0
for ((i = 1; i <= chunks; i++)); do
	out=$(LC_ALL=C "$bin" selfplay -players "$players" -n "$games" -seed $((first + i - 1)))
	w=$(printf '%s\n' "$out" | sed -n 's/^YR ([^)]*): \([0-9]*\) wins.*/\1/p')
	won=$((won + w))
	played=$((played + games))
	awk -v k="$won" -v n="$played" -v p="$players" 'BEGIN {
		z = 1.959963984540054; f = k / n; d = 1 + z*z/n
		c = (f + z*z/(2*n)) / d; h = z * sqrt(f*(1-f)/n + z*z/(4*n*n)) / d
		lo = c - h; if (lo < 0) lo = 0; hi = c + h; if (hi > 1) hi = 1
		printf "bots-strength.sh: %s: YR won %d of %d, %.3f (95%%: %.3f–%.3f)\n", p, k, n, f, lo, hi
	}'
done
