#!/usr/bin/env bash
# Ensures what the tests need beyond npm packages: Java 17+ for AWS's DynamoDB Local.
# Installs Debian's headless JRE when it is missing (the machines here run as root).
set -euo pipefail

java_major() {
  java -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -n 1
}

if ! command -v java >/dev/null 2>&1 || [ "$(java_major)" -lt 17 ]; then
  echo "ensure-test-deps: installing a Java 17+ runtime for DynamoDB Local"
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq openjdk-17-jre-headless >/dev/null
fi
echo "ensure-test-deps: java $(java_major) ok"
