#!/usr/bin/env bash
# Answers START, then exits when asked for a move: "crashed or exited".
source "$(dirname "$0")/common.sh"
while next_line; do
    track
    ((to_move)) && exit 3
done
