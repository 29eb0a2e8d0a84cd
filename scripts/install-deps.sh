#!/usr/bin/env bash
# Installs the system libraries Tally builds on, when they are missing.
set -euo pipefail
if [[ "$(uname)" == "Darwin" ]]; then
    command -v brew >/dev/null || { echo "Homebrew is needed to install openssl@3" >&2; exit 1; }
    brew list openssl@3 >/dev/null 2>&1 || brew install openssl@3
    exit 0
fi
missing=()
for pkg in libssl-dev pkg-config; do
    dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
done
if ((${#missing[@]})); then
    sudo_cmd=""
    [[ $(id -u) -ne 0 ]] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq "${missing[@]}"
fi
