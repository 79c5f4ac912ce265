#!/usr/bin/env bash
# Copy the JavaScript the built book serves itself into _vendor/ (served as _static/):
# require.js, the Jupyter widgets HTML manager, anywidget's AMD module and MathJax 3.
# Installed from the npm registry by `npm ci` (versions pinned in package-lock.json).
set -euo pipefail
cd "$(dirname "$0")/.."
nm=node_modules
rm -rf _vendor
mkdir -p _vendor/html-manager _vendor/anywidget _vendor/mathjax
cp "$nm/requirejs/require.js" _vendor/require.js
cp tools/widgets-config.js _vendor/widgets-config.js
cp "$nm/@jupyter-widgets/html-manager/dist/embed-amd.js" _vendor/embed-amd.js
# libembed-amd.js plus the font files it references, without source maps.
find "$nm/@jupyter-widgets/html-manager/dist" -maxdepth 1 -type f ! -name '*.map' ! -name 'embed*.js' \
  -exec cp {} _vendor/html-manager/ \;
cp "$nm/anywidget/dist/index.js" _vendor/anywidget/index.js
cp -r "$nm/mathjax/es5/." _vendor/mathjax/
touch _vendor/.stamp
echo "vendored static assets into _vendor/"
