#!/usr/bin/env bash
# Conversation retrieval (issue 14): ingests each long conversation of
# testdata/convo/ into a fresh memory and reports, per kind of question,
# the share of evidence turns cairn's search finds within 5, 10 and 20
# hits and within 500, 1,000 and 2,000 tokens of returned text, in
# keyword, vector and hybrid mode, next to BM25 over single turns and over
# whole sessions, with the latency of a warm query (bench/convo).
#
#   bench/convo.sh [-json] [-v] [-k N] [-strict] [CONV...]
#
# DIR=bench/convo/testdata runs the benchmark's own small fixture.
set -euo pipefail
cd "$(dirname "$0")/.."
exec go run ./bench/convo -dir "${DIR:-testdata/convo}" "$@"
