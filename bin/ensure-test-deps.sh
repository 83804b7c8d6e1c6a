#!/usr/bin/env bash
# Ensures what the tests need beyond npm packages:
#   - Java 17+ with the jdk.compiler module for AWS's DynamoDB Local (it is started through a Java
#     source-file launcher, functions/platform/local/LoopbackDynamoDbLocal.java, that keeps it on
#     127.0.0.1; Debian's openjdk-17-jre-headless ships that module, slimmer runtimes may not);
#   - Debian's Chromium (/usr/bin/chromium) for the browser tests (playwright-core drives it and
#     never downloads a browser of its own).
# Installs the missing Debian packages (the machines here run as root; sudo otherwise).
set -euo pipefail

SUDO=""
[ "$(id -u)" -ne 0 ] && SUDO="sudo"
APT_UPDATED=0

apt_install() {
  if [ "$APT_UPDATED" -eq 0 ]; then
    $SUDO apt-get update -qq
    APT_UPDATED=1
  fi
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "$@" >/dev/null
}

java_major() {
  java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1
}

if ! command -v java >/dev/null 2>&1 || [ "$(java_major)" -lt 17 ]; then
  echo "ensure-test-deps: installing a Java 17+ runtime for DynamoDB Local"
  apt_install openjdk-17-jre-headless
fi
if ! java --list-modules 2>/dev/null | grep -q '^jdk.compiler@'; then
  echo "ensure-test-deps: installing a Java 17 JDK (this Java cannot run source-file programs)"
  apt_install openjdk-17-jdk-headless
fi
echo "ensure-test-deps: java $(java_major) ok"

CHROMIUM=/usr/bin/chromium
if [ ! -x "$CHROMIUM" ]; then
  echo "ensure-test-deps: installing Debian's chromium for the browser tests"
  apt_install chromium
fi
echo "ensure-test-deps: $("$CHROMIUM" --version 2>/dev/null || echo chromium) ok"
