#!/usr/bin/env bash
# make web-assets: installs the dashboard's front-end libraries from npm
# (web/package-lock.json, exact versions and hashes) and copies their
# browser builds into web/assets/vendor/, which go:embed puts in the binary.
# Nothing is loaded from the internet at run time.
set -euo pipefail
cd "$(dirname "$0")/../web"
command -v npm >/dev/null || { echo "web-assets: npm not found (apt-get install nodejs npm)" >&2; exit 1; }
if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
mkdir -p assets/vendor
cp node_modules/cytoscape/dist/cytoscape.min.js assets/vendor/
cp node_modules/echarts/dist/echarts.min.js assets/vendor/
cp node_modules/cytoscape/LICENSE assets/vendor/LICENSE.cytoscape.txt
cp node_modules/echarts/LICENSE assets/vendor/LICENSE.echarts.txt
echo "web-assets: cytoscape $(node -p 'require("./node_modules/cytoscape/package.json").version'), echarts $(node -p 'require("./node_modules/echarts/package.json").version') in web/assets/vendor/"
