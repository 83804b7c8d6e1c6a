#!/usr/bin/env bash
# Installs the Debian packages the client libraries' toolchains need and do not have yet: the union
# of every language's aptPackages (bin/sdks/languages/*.ts) whose toolchainProbe fails, in one
# apt-get update and one apt-get install. Run by `npm run test:sdks` (bin/test-sdks.ts); honours
# FC_SDK_LANGUAGES=python,go. The machines here run as root; sudo otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"

mapfile -t MISSING < <(node_modules/.bin/tsx bin/sdks/toolchains.ts)
if [ "${#MISSING[@]}" -eq 0 ]; then
  echo "ensure-sdk-toolchains: every toolchain present"
  exit 0
fi
echo "ensure-sdk-toolchains: installing ${MISSING[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${MISSING[@]}" >/dev/null
echo "ensure-sdk-toolchains: installed ${#MISSING[@]} packages"
