#!/usr/bin/env bash
set -euo pipefail # PLAIN-COMMENT trailing

URL="http://x/#not-a-comment"

# PLAIN-COMMENT own line
load() {
  local path="$1"
  local strict="${2:-0}"
  local count=0
  while IFS= read -r line; do
    # PLAIN-COMMENT nested
    if [ -z "$line" ]; then
      continue
    fi
    key="${line%%=*}"
    value="${line#*=}"
    if [ "$strict" = 1 ] && [ -z "$value" ]; then
      echo "bad $key" >&2
      return 1
    fi
    count=$((count + 1))
  done < "$path"
  cat <<EOF2
multi # in heredoc
  line
EOF2
  echo "$count $URL"
  return 0
}
