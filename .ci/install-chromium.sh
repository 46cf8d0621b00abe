#!/usr/bin/env bash
# Installs what the report tests need, idempotently: Debian's chromium (for
# the headless-browser tests in reports/) and the pinned ECharts in
# reports/node_modules (npm ci from reports/package-lock.json). Each step is
# skipped when its result is already there. Run from anywhere.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

sudo=""
if [ "$(id -u)" -ne 0 ]; then
	sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
updated=""
apt_install() {
	if [ -z "$updated" ]; then
		$sudo apt-get update -qq
		updated=1
	fi
	$sudo apt-get install -y -qq "$@"
}

if [ -x /usr/bin/chromium ]; then
	echo "install-chromium: /usr/bin/chromium present"
else
	echo "install-chromium: installing Debian chromium"
	apt_install chromium
	test -x /usr/bin/chromium
fi

if [ -f "$root/reports/node_modules/echarts/dist/echarts.min.js" ]; then
	echo "install-chromium: reports/node_modules/echarts present"
else
	echo "install-chromium: npm ci in reports/"
	if ! command -v npm >/dev/null; then
		echo "install-chromium: installing Debian npm"
		apt_install npm
	fi
	(cd "$root/reports" && npm ci --no-audit --no-fund)
	test -f "$root/reports/node_modules/echarts/dist/echarts.min.js"
fi
