#!/usr/bin/env bash
# The pull-request benchmark gate that both CI examples run (copy it to ci/perf-gate.sh).
#
# Measures this commit (HEAD) against the commit it forked from on the target branch
# (merge-base:TARGET): commits that landed on the target since the fork do not count for or
# against the change. Exit codes are perfproof's: 0 no regression, 1 a benchmark regressed
# (the gate fails), 2 bad input such as a target that does not resolve (never a silent pass),
# 3 a build or JMH step failed. The run folder (report.md, results.json, raw JMH files, logs)
# is left in $PERFPROOF_OUT whatever the outcome, for the upload and the comment steps.
#
# Settings (environment):
#   PERFPROOF_TARGET    target ref, e.g. origin/main (required)
#   PERFPROOF_OUT       run folder [perfproof-run]
#   PERFPROOF_REPO      repository [.]
#   PERFPROOF_BENCH     JMH benchmark regex [every benchmark]
#   PERFPROOF_MODULE    build module holding the benchmarks [detected]
#   PERFPROOF_ROUNDS    rounds of both sides [perfproof's default]
#   PERFPROOF_JMH_ARGS  JMH options [perfproof's default]
#   PERFPROOF_DB        history database; when set, the run is recorded there too
#   PERFPROOF_JUNIT     JUnit XML file for the CI's test report (one test case per key,
#                       failed when its time or bytes/op regressed); written even when the
#                       gate fails [none]
set -euo pipefail

target="${PERFPROOF_TARGET:?set PERFPROOF_TARGET to the target branch, e.g. origin/main}"
out="${PERFPROOF_OUT:-perfproof-run}"

args=(ab --repo "${PERFPROOF_REPO:-.}" --base "merge-base:${target}" --head HEAD
      --out "$out" --fail-on-regression)
if [ -n "${PERFPROOF_BENCH:-}" ]; then args+=(--bench "$PERFPROOF_BENCH"); fi
if [ -n "${PERFPROOF_MODULE:-}" ]; then args+=(--module "$PERFPROOF_MODULE"); fi
if [ -n "${PERFPROOF_ROUNDS:-}" ]; then args+=(--rounds "$PERFPROOF_ROUNDS"); fi
if [ -n "${PERFPROOF_JMH_ARGS:-}" ]; then args+=(--jmh-args "$PERFPROOF_JMH_ARGS"); fi
if [ -n "${PERFPROOF_DB:-}" ]; then args+=(--record); fi
if [ -n "${PERFPROOF_JUNIT:-}" ]; then args+=(--junit "$PERFPROOF_JUNIT"); fi

exec perfproof "${args[@]}"
