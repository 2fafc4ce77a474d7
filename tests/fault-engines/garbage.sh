#!/usr/bin/env bash
# Answers START, then answers every move with garbage: "malformed answer".
source "$(dirname "$0")/common.sh"
while next_line; do
    track
    ((to_move)) && echo "hello, world"
done
