#!/usr/bin/env bash
# The README promises that CI runs its test command word for word: check that .ci/run's command
# line stands, alone on a line, in README.md.
set -euo pipefail
root=$1
cmd=$(grep -E '^apt-get ' "$root/.ci/run")
if grep -qxF "$cmd" "$root/README.md"; then
  echo "readme_commands: OK"
else
  echo "readme_commands: .ci/run's command is not in README.md: $cmd"
  exit 1
fi
