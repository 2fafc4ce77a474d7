#!/usr/bin/env bash
# Answers START with something other than OK.
while IFS= read -r line; do
    case "$line" in START*) echo "ERROR not today" ;; END*) exit 0 ;; esac
done
