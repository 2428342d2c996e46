#!/usr/bin/env bash
# Runs Debian's Mosquitto for the broadcast tests, with the access rules of
# the embedded broker (docs/feed.md): a table user that writes only its own
# subtree except cmd/, a judge user that writes only commands, anonymous
# clients that only read parchis/v1/#. Persistence is on, saved when
# Mosquitto stops, so a restart keeps sessions and retained messages.
#
# usage: ci/mosquitto.sh [start|restart|stop|clean|env]
#   start    install mosquitto if missing (apt-get), start it on a spare port
#            (18830 and up) unless already running, print the environment
#   restart  stop (SIGTERM, state saved) and start the same broker again
#   stop     stop it
#   clean    stop it and remove its directory, if start made it
#   env      print the environment of the running broker
#
# Each start makes its own directory (mktemp) unless
# PARCHIS_TEST_MOSQUITTO_DIR names one, so that runs side by side, or of
# several users, never share or stop each other's broker; restart, stop and
# env need PARCHIS_TEST_MOSQUITTO_DIR, which start prints; clean stops the
# broker and removes the directory start made (stop keeps it, and the
# broker's saved state, for a start again).
#
# start and env print shell lines for eval; the tests read:
#   PARCHIS_TEST_MOSQUITTO            host:port (the tests skip without it)
#   PARCHIS_TEST_MOSQUITTO_DIR        this broker's directory (for restart)
#   PARCHIS_TEST_MOSQUITTO_EVENT      event and table of the table user
#   PARCHIS_TEST_MOSQUITTO_TABLE
#   PARCHIS_TEST_MOSQUITTO_TABLE_USER / _TABLE_PASSWORD
#   PARCHIS_TEST_MOSQUITTO_JUDGE_USER / _JUDGE_PASSWORD
#
# example (.ci/run):
#   eval "$(ci/mosquitto.sh start)"
#   go test ./broadcast/...
set -euo pipefail

DIR=${PARCHIS_TEST_MOSQUITTO_DIR:-}
if [ -z "$DIR" ]; then
	if [ "${1:-start}" != start ]; then
		echo "mosquitto.sh: ${1}: set PARCHIS_TEST_MOSQUITTO_DIR, as start prints it" >&2
		exit 2
	fi
	DIR=$(mktemp -d "${TMPDIR:-/tmp}/parchis-mosquitto.XXXXXX")
	touch "$DIR/made-by-start"
fi
EVENT=ci
TABLE=t1
TABLE_USER=table-$EVENT-$TABLE
JUDGE_USER=judge-ci

log() { echo "mosquitto.sh: $*" >&2; }

install() {
	if command -v mosquitto >/dev/null 2>&1 && command -v mosquitto_passwd >/dev/null 2>&1; then
		return
	fi
	local sudo=""
	if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
	log "installing mosquitto"
	export DEBIAN_FRONTEND=noninteractive
	$sudo apt-get update -q >&2
	$sudo apt-get install -y -q mosquitto >&2
}

running() {
	[ -f "$DIR/pid" ] && kill -0 "$(cat "$DIR/pid")" 2>/dev/null
}

port_free() {
	! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

configure() {
	mkdir -p "$DIR/data"
	if [ ! -f "$DIR/secrets" ]; then
		local tp jp
		tp=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
		jp=$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')
		printf 'TABLE_PASSWORD=%s\nJUDGE_PASSWORD=%s\n' "$tp" "$jp" >"$DIR/secrets"
		chmod 600 "$DIR/secrets"
	fi
	# shellcheck disable=SC1091
	. "$DIR/secrets"
	if [ ! -f "$DIR/port" ]; then
		local p=18830
		while ! port_free "$p"; do p=$((p + 1)); done
		echo "$p" >"$DIR/port"
	fi
	rm -f "$DIR/passwd"
	touch "$DIR/passwd"
	mosquitto_passwd -b "$DIR/passwd" "$TABLE_USER" "$TABLE_PASSWORD" >&2
	mosquitto_passwd -b "$DIR/passwd" "$JUDGE_USER" "$JUDGE_PASSWORD" >&2
	cat >"$DIR/acl" <<ACL
# Everyone, anonymous included, reads the live feed.
pattern read parchis/v1/#

# The table writes its own subtree; its commands come from judges only.
user $TABLE_USER
topic write parchis/v1/$EVENT/$TABLE/status
topic write parchis/v1/$EVENT/$TABLE/state
topic write parchis/v1/$EVENT/$TABLE/events
topic write parchis/v1/$EVENT/$TABLE/result
topic write parchis/v1/$EVENT/$TABLE/results/+
topic write parchis/v1/$EVENT/$TABLE/reply

# Judges write commands to any table, and the events' standings.
user $JUDGE_USER
topic write parchis/v1/+/+/cmd/#
topic write parchis/v1/+/standings
ACL
	cat >"$DIR/mosquitto.conf" <<CONF
per_listener_settings false
listener $(cat "$DIR/port") 127.0.0.1
allow_anonymous true
password_file $DIR/passwd
acl_file $DIR/acl
persistence true
persistence_location $DIR/data/
autosave_interval 0
max_queued_messages 100000
pid_file $DIR/pid
log_dest file $DIR/mosquitto.log
user $(id -un)
CONF
	chmod 700 "$DIR"
	chmod 600 "$DIR/passwd" "$DIR/acl"
}

start() {
	install
	if running; then
		return
	fi
	configure
	mosquitto -c "$DIR/mosquitto.conf" -d
	local port i
	port=$(cat "$DIR/port")
	for i in $(seq 50); do
		if ! port_free "$port"; then
			log "mosquitto $(mosquitto -h 2>/dev/null | head -1 | awk '{print $3}') on 127.0.0.1:$port (pid $(cat "$DIR/pid"), $DIR)"
			return
		fi
		sleep 0.1
	done
	log "mosquitto did not start; its log:"
	cat "$DIR/mosquitto.log" >&2 || true
	exit 1
}

stop() {
	if running; then
		local pid i
		pid=$(cat "$DIR/pid")
		kill -TERM "$pid"
		for i in $(seq 100); do
			kill -0 "$pid" 2>/dev/null || break
			sleep 0.05
		done
		if kill -0 "$pid" 2>/dev/null; then
			log "mosquitto $pid did not stop"
			exit 1
		fi
	fi
	rm -f "$DIR/pid"
}

# clean removes the broker's directory when start made it.
clean() {
	if [ -f "$DIR/made-by-start" ]; then
		rm -rf "$DIR"
	fi
}

env_lines() {
	# shellcheck disable=SC1091
	. "$DIR/secrets"
	cat <<ENV
export PARCHIS_TEST_MOSQUITTO=127.0.0.1:$(cat "$DIR/port")
export PARCHIS_TEST_MOSQUITTO_DIR=$DIR
export PARCHIS_TEST_MOSQUITTO_EVENT=$EVENT
export PARCHIS_TEST_MOSQUITTO_TABLE=$TABLE
export PARCHIS_TEST_MOSQUITTO_TABLE_USER=$TABLE_USER
export PARCHIS_TEST_MOSQUITTO_TABLE_PASSWORD=$TABLE_PASSWORD
export PARCHIS_TEST_MOSQUITTO_JUDGE_USER=$JUDGE_USER
export PARCHIS_TEST_MOSQUITTO_JUDGE_PASSWORD=$JUDGE_PASSWORD
ENV
}

case "${1:-start}" in
start) start; env_lines ;;
restart) stop; start ;;
stop) stop ;;
clean) stop; clean ;;
env) env_lines ;;
*) echo "usage: ci/mosquitto.sh [start|restart|stop|clean|env]" >&2; exit 2 ;;
esac
