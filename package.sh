#!/usr/bin/env bash
# Builds the table's Debian packages with nfpm (pinned in tools/go.mod, run
# from the module cache or the Go module proxy: nothing else is fetched):
#
#	dist/parchis_<version>_arm64.deb   Raspberry Pi OS 64-bit (Pi 3, 4, 5, Zero 2)
#	dist/parchis_<version>_armhf.deb   Raspberry Pi OS 32-bit (every Pi: ARMv6)
#	dist/parchis_<version>_amd64.deb   a laptop, to try parchisd sim
#
# Usage: ./package.sh [VERSION] [ARCH…]
#   VERSION  defaults to $PARCHIS_VERSION, else the latest tag vX.Y.Z
#            (X.Y.Z+N.gHASH past it), else 0.0.0+gitDATE.HASH
#   ARCH     amd64, arm64, armhf (default: all three)
#
# The version is stamped into every command (--version, the status topic,
# parchis_build_info). See docs/install.md to install a package.
set -euo pipefail
cd "$(dirname "$0")"
root=$(pwd)

version=${1:-${PARCHIS_VERSION:-}}
[ $# -gt 0 ] && shift
if [ -z "$version" ]; then
	if tag=$(git describe --tags --match 'v[0-9]*' 2>/dev/null); then
		version=$(echo "${tag#v}" | sed -E 's/-([0-9]+)-g([0-9a-f]+)$/+\1.g\2/')
	else
		version="0.0.0+git$(git log -1 --format=%cd --date=format:%Y%m%d 2>/dev/null || date -u +%Y%m%d).$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)"
	fi
fi
if ! [[ $version =~ ^[0-9][A-Za-z0-9.+~]*$ ]]; then
	echo "package.sh: version $version: want a Debian native version (a digit, then letters, digits, . + ~)" >&2
	exit 2
fi
arches=("$@")
[ ${#arches[@]} -gt 0 ] || arches=(arm64 armhf amd64)

# The changelog's date: the commit's, so that a package built twice from one
# commit is the same.
date=$(git log -1 --format=%cD 2>/dev/null || date -uR)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p dist "$stage/doc"
doc=$stage/doc
cp README.md "$doc/"
cp docs/*.md docs/*.svg "$doc/"
cp packaging/copyright "$doc/copyright"
{
	printf 'parchis (%s) unstable; urgency=medium\n\n' "$version"
	printf '  * Release %s of the smart parchis table: parchisd, parchis,\n    parchis-judges, their units and guides.\n\n' "$version"
	printf ' -- parchis-table <parchis-table@users.noreply.github.com>  %s\n' "$date"
} | gzip -9n >"$doc/changelog.gz"
for f in "$doc"/*.md; do gzip -9n "$f"; done

for arch in "${arches[@]}"; do
	case $arch in
	amd64) goarch=amd64 ;;
	arm64) goarch=arm64 ;;
	armhf) goarch=arm ;;
	*) echo "package.sh: unknown architecture $arch (amd64, arm64, armhf)" >&2; exit 2 ;;
	esac
	echo "package.sh: parchis $version for $arch"
	mkdir -p "$stage/$arch/bin"
	cp -r "$doc" "$stage/$arch/doc"
	CGO_ENABLED=0 GOOS=linux GOARCH=$goarch GOARM=6 go build -trimpath \
		-ldflags "-s -w -X github.com/parchis-table/parchis/internal/version.Version=$version" \
		-o "$stage/$arch/bin/" ./cmd/parchisd ./cmd/parchis ./cmd/parchis-judges
	rm -f "dist/parchis_${version}_$arch.deb"
	ARCH=$arch VERSION=$version STAGE=$stage/$arch \
		go tool -modfile="$root/tools/go.mod" nfpm package --config packaging/nfpm.yaml --packager deb --target "dist/parchis_${version}_$arch.deb"
done
