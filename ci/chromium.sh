#!/usr/bin/env bash
# Installs Debian's chromium for the judges' dashboard browser test
# (go test ./judges -run TestBrowser). Does nothing when it is already there.
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
	echo "chromium: $(chromium --version 2>/dev/null || echo present)"
	exit 0
fi
export DEBIAN_FRONTEND=noninteractive
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
	SUDO="sudo"
fi
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends chromium fonts-dejavu-core
chromium --version
