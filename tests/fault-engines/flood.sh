#!/usr/bin/env bash
# Answers START, then floods MESSAGE lines and never gives a move: a runner must give up, not hang.
source "$(dirname "$0")/common.sh"
while next_line; do
    track
    if ((to_move)); then
        while true; do echo "MESSAGE thinking very hard"; done
    fi
done
