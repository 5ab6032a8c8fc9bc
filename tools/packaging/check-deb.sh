#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# `make check-deb`: the packages, end to end, on this machine (root; it
# installs and purges them):
#   1. make deb (dist/*.deb, lintian)
#   2. apt-get install ./dist/*.deb: DKMS builds cxprm.ko for the Debian
#      kernel $KVER (the one `make module` and the QEMU guest use, never
#      the host's running kernel) into /lib/modules/$KVER/updates/dkms/,
#      signed with DKMS's MOK key (checked: Secure Boot, packaging.rst);
#      the CLI, man pages, completion, udev rule, modprobe.d file, group
#   3. that DKMS-built module in the QEMU guest behind the packaged
#      cxprm-emud: the device listed, a query answered, its kernel name
#      cxprm!<bdf> (what the udev rule matches)
#   4. apt-get purge: the module, the sources and the tools are gone
#   tools/packaging/check-deb.sh [--no-build]   (--no-build: dist/ as it is)
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
KVER=${KVER:-$(find /boot -maxdepth 1 -name 'vmlinuz-*' | sort -V | tail -n1 | sed 's|.*/vmlinuz-||')}
ver=$(dpkg-parsechangelog -S Version)
t0=$(date +%s)
fail() { echo "check-deb: FAIL: $*" >&2; exit 1; }
step() { echo "check-deb: $* ($(($(date +%s) - t0)) s)"; }

[ "${1:-}" = --no-build ] || tools/packaging/deb.sh
step "packages built"

export DEBIAN_FRONTEND=noninteractive
# A run cut off mid-install (a killed session, CI timeout) leaves dpkg
# "interrupted" with cxprm-dkms half configured, and then every apt-get
# refuses. Finish what dpkg journalled, then remove what is ours.
if [ -n "$(dpkg --audit 2>/dev/null)" ] || [ -n "$(ls -A /var/lib/dpkg/updates 2>/dev/null)" ]; then
	step "dpkg was left interrupted; recovering (dpkg --configure -a)"
	dpkg --configure -a || dpkg --remove --force-remove-reinstreq cxprm-dkms cxprm-tools || true
fi
apt-get purge -y -q cxprm-dkms cxprm-tools >/dev/null 2>&1 ||
	dpkg --purge --force-remove-reinstreq cxprm-dkms cxprm-tools >/dev/null 2>&1 || true
[ -z "$(dpkg --audit 2>/dev/null)" ] || fail "dpkg is left broken: $(dpkg --audit)"
apt-get install -y -q --no-install-recommends ./dist/cxprm-dkms_"$ver"_all.deb \
	./dist/cxprm-tools_"$ver"_*.deb
ko=$(find "/lib/modules/$KVER/updates/dkms" -name 'cxprm.ko*' 2>/dev/null | head -n1)
[ -n "$ko" ] || fail "DKMS built no cxprm.ko for $KVER"
modinfo -F vermagic "$ko" | grep -q "^$KVER " || fail "$ko is not for $KVER"
dkms status "cxprm/$ver" -k "$KVER" | grep -q installed || fail "dkms status: not installed for $KVER"
# Secure Boot (packaging.rst): DKMS signed it with its MOK key.
[ "$(modinfo -F sig_id "$ko")" = "PKCS#7" ] || fail "$ko carries no signature (sig_id '$(modinfo -F sig_id "$ko")')"
signer=$(modinfo -F signer "$ko")
mok=/var/lib/dkms/mok.pub
[ -f "$mok" ] || fail "no DKMS MOK certificate $mok"
mok_cn=$(openssl x509 -inform DER -in "$mok" -noout -subject -nameopt multiline 2>/dev/null |
	sed -n 's/^ *commonName *= *//p')
if [ -z "$signer" ] || [ "$signer" != "$mok_cn" ]; then
	fail "$ko signed by '$signer', not DKMS's MOK key '$mok_cn'"
fi
step "signed by DKMS's MOK key: $signer ($mok)"
[ "$(cxprm --version)" = "cxprm $ver" ] || fail "cxprm --version"
for p in cxprm cxprm-emud; do man -w "$p" >/dev/null || fail "no man page $p"; done
# The DKMS tree carries the core's generated layouts (no python3 on a target).
for f in /usr/share/bash-completion/completions/cxprm /lib/udev/rules.d/60-cxprm.rules /etc/modprobe.d/cxprm.conf \
	"/usr/src/cxprm-$ver/core-cpp/generated/cxprm/prm/layouts_gen.h"; do
	[ -f "$f" ] || fail "no $f"
done
getent group cxprm >/dev/null || fail "no cxprm group"
step "installed: $ko"

# The guest is busybox without shared libraries: the CLI in it is the
# static build; the emulator is the packaged one (on the host).
sbuild=$(tools/qemu/build-static.sh cxprm)
console=$(mktemp "${TMPDIR:-/tmp}/cxprm-check-deb.XXXXXXXX")
trap 'rm -f "$console"' EXIT
kocopy=$(dirname "$console")/cxprm-dkms-$$.ko
trap 'rm -f "$console" "$kocopy"' EXIT
case $ko in
*.xz) xz -dc "$ko" >"$kocopy" ;;
*.zst) zstd -dcq "$ko" >"$kocopy" ;;
*) cp "$ko" "$kocopy" ;;
esac
rc=0
# shellcheck disable=SC2016 # $CXPRM_BDF is the guest's
tools/qemu/run-guest.sh -q --kver "$KVER" --ko "$kocopy" --emud --emud-bin /usr/bin/cxprm-emud \
	--file "$sbuild/tools/cxprm/cxprm:/cxprm/cxprm" --console-log "$console" --timeout 180 \
	--cmd '/cxprm/cxprm list && /cxprm/cxprm info "$CXPRM_BDF" && /cxprm/cxprm caps "$CXPRM_BDF" --nonzero | head -n 5 && ls /sys/class/misc | grep "^cxprm!$CXPRM_BDF\$" && echo CHECK-DEB-GUEST-OK' || rc=$?
tr -d '\r' <"$console" | grep -qx CHECK-DEB-GUEST-OK || fail "guest run (status $rc)"
step "the DKMS-built module answered in the guest"

apt-get purge -y -q cxprm-dkms cxprm-tools
[ -z "$(find "/lib/modules/$KVER/updates/dkms" -name 'cxprm.ko*' 2>/dev/null)" ] || fail "cxprm.ko left after purge"
[ ! -e "/usr/src/cxprm-$ver" ] || fail "/usr/src/cxprm-$ver left after purge"
for f in /usr/sbin/cxprm /lib/udev/rules.d/60-cxprm.rules /etc/modprobe.d/cxprm.conf; do
	[ ! -e "$f" ] || fail "$f left after purge"
done
step "purged"
echo "check-deb: OK ($(($(date +%s) - t0)) s)"
