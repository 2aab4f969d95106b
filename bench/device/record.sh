#!/bin/sh
# The run prefix bench/device/bundle.sh gives test/Differential/run.py: keeps
# each generated program (in $RECORD_DIR, named $RECORD_TAG-<name>) to run
# on another machine instead of running it here.
cp "$1" "$RECORD_DIR/$RECORD_TAG-$(basename "$1")"
