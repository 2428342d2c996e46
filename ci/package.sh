#!/usr/bin/env bash
# Builds the Debian packages (../package.sh) and checks them as a Pi owner
# would get them: the contents and control fields (dpkg-deb -c, -I),
# Debian's lintian (no errors; warnings are printed), the units' hardening
# (systemd-analyze security --offline, exposure at most 2.5), and the arm64
# package's parchisd unpacked and run under qemu (--version). Installs
# lintian when missing (needs root and the Debian archive).
#
# Usage: bash ci/package.sh
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v lintian >/dev/null; then
	echo "ci/package.sh: installing lintian" >&2
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq --no-install-recommends lintian >/dev/null
fi
fail() { echo "ci/package.sh: $*" >&2; exit 1; }

echo "ci/package.sh: the units' hardening"
for unit in config/parchisd.service config/parchis-judges.service; do
	if ! out=$(systemd-analyze security --offline=true --threshold=25 "$unit" 2>&1); then
		echo "$out" >&2
		fail "$unit: exposure over 2.5"
	fi
	echo "$out" | tail -1
done

version=0.0.0+ci$(date -u +%Y%m%d)
./package.sh "$version" >/dev/null
want=(./usr/bin/parchisd ./usr/bin/parchis ./usr/bin/parchis-judges
	./usr/lib/systemd/system/parchisd.service ./usr/lib/systemd/system/parchis-judges.service
	./usr/lib/sysusers.d/parchis.conf ./etc/parchisd/parchisd.yaml
	./usr/share/doc/parchis/copyright ./usr/share/doc/parchis/changelog.gz
	./usr/share/doc/parchis/README.md.gz ./usr/share/doc/parchis/install.md.gz ./usr/share/doc/parchis/build.md.gz
	./usr/share/doc/parchis/players-guide.md.gz ./usr/share/doc/parchis/guia-jugadores.md.gz
	./usr/share/doc/parchis/wiring-sensors.svg ./usr/share/doc/parchis/wiring-leds.svg)
debs=()
for arch in arm64 armhf amd64; do
	deb=dist/parchis_${version}_$arch.deb
	[ -f "$deb" ] || fail "$deb was not built"
	debs+=("$deb")
	list=$(dpkg-deb -c "$deb" | awk '{print $6}')
	for f in "${want[@]}"; do
		grep -qxF "$f" <<<"$list" || fail "$deb lacks $f"
	done
	info=$(dpkg-deb -I "$deb")
	grep -q "^ Architecture: $arch$" <<<"$info" || fail "$deb: not Architecture $arch"
	grep -q "^ Version: $version$" <<<"$info" || fail "$deb: not Version $version"
	[ "$(dpkg-deb -f "$deb" Package)" = parchis ] || fail "$deb: not the parchis package"
	ctrl=$(mktemp -d)
	dpkg-deb -e "$deb" "$ctrl/DEBIAN"
	grep -qxF /etc/parchisd/parchisd.yaml "$ctrl/DEBIAN/conffiles" || fail "$deb: /etc/parchisd/parchisd.yaml is not a conffile"
	if grep -qE 'systemctl (enable|start)|deb-systemd-invoke' "$ctrl/DEBIAN/postinst"; then
		fail "$deb: the postinst starts the daemon before it is configured"
	fi
	rm -rf "$ctrl"
	echo "ci/package.sh: $deb: $(du -h "$deb" | cut -f1), contents and control fields as they should be"
done

echo "ci/package.sh: lintian"
out=$(lintian --tag-display-limit 0 "${debs[@]}" 2>&1 | grep -v 'running with root privileges' || true)
[ -z "$out" ] || echo "$out"
if grep -q '^E:' <<<"$out"; then
	fail "lintian reports errors"
fi

echo "ci/package.sh: the arm64 package's parchisd under qemu"
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
dpkg-deb -x "dist/parchis_${version}_arm64.deb" "$root"
file "$root/usr/bin/parchisd" | grep -q 'ARM aarch64' || fail "the arm64 package's parchisd is not an arm64 binary"
got=$(qemu-aarch64-static "$root/usr/bin/parchisd" --version)
echo "$got"
[[ $got == "parchisd $version ("*"linux/arm64)" ]] || fail "parchisd --version says $got, want parchisd $version (… linux/arm64)"
got=$(qemu-aarch64-static "$root/usr/bin/parchis" --version)
[[ $got == "parchis $version "* ]] || fail "parchis --version says $got"
got=$(qemu-aarch64-static "$root/usr/bin/parchis-judges" --version)
[[ $got == "parchis-judges $version "* ]] || fail "parchis-judges --version says $got"
systemd-analyze security --offline=true --threshold=25 --root="$root" parchisd.service >/dev/null ||
	fail "the packaged parchisd.service: exposure over 2.5"
echo "ci/package.sh: the package's sysusers.d entry, applied to the unpacked tree"
mkdir -p "$root/etc"
systemd-sysusers --root="$root" parchis.conf 2>/dev/null
grep -q '^parchis:x:[0-9]*:[0-9]*:[^:]*:/var/lib/parchisd:/usr/sbin/nologin$' "$root/etc/passwd" || fail "sysusers.d made no parchis user"
for g in i2c spi gpio dialout video; do
	grep -qE "^$g:x:[0-9]+:(.*,)?parchis(,|$)" "$root/etc/group" || fail "sysusers.d did not put parchis in the $g group"
done
rm -rf dist/parchis_"${version}"_*.deb
echo "ci/package.sh: ok"
