#!/usr/bin/env bash
# Answers OK to its first START and plays the first free point; answers every later START with an
# error, so it passes the runner's start check and fails in the match.
source "$(dirname "$0")/common.sh"
starts=0
while next_line; do
    if [[ "$line" == START* ]]; then
        starts=$((starts + 1))
        if ((starts > 1)); then
            echo "ERROR not again"
            continue
        fi
    fi
    track
    if ((to_move)); then
        mv="$(first_free)"
        mark "${mv%,*}" "${mv#*,}"
        echo "$mv"
    fi
done
