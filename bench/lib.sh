#!/usr/bin/env bash
# What the benchmark scripts share, sourced from the repository's root:
#   . bench/lib.sh
# now: the time in nanoseconds. median: the median of the numbers on
# standard input, one per line.
now() { date +%s%N; }
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
