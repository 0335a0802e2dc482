#!/usr/bin/env bash
# Builds the shipped puzzle sets, ID.jsonl in this folder, as
# docs/puzzles.md ("The shipped sets") describes: for each id, self-play
# games of seed 1 searched for puzzles at the generator's defaults, then
# every puzzle rechecked four times deeper and again sixteen times deeper,
# keeping those that hold both times.
# Pommel's use its endgame tables of three pieces. The same arbiter gives
# the same files, line for line. About 85 minutes of CPU; two ids run at
# once (JOBS=1 for one). A set can be grown without playing its games
# again: 'arbiter puzzles ID --first N --selfplay M' plays games N to
# N+M-1, and the found puzzles of both runs, put one after the other
# with a later copy of an id dropped, are what one run of N+M gives.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
go build -o "$work/arbiter" "$here/../../cmd/arbiter"
"$work/arbiter" solve pommel --pieces 3 --out "$work/pommel-tables" -q

# The self-play games of each id: enough, at the rates docs/puzzles.md
# measured, to leave at least 300 puzzles after the recheck.
games=(
  "checkers-2011 621"
  "punt-heks-match 647"
  "pommel-76 371"
  "punt-heks-match-3p 460"
  "punt-match 364"
  "eximo 341"
  "pommel 326"
)

build() {
  local id=$1 n=$2 tables=()
  [ "$id" = pommel ] && tables=(--tables "$work/pommel-tables")
  "$work/arbiter" puzzles "$id" --selfplay "$n" --seed 1 "${tables[@]}" --out "$work/$id.found.jsonl" -q
  "$work/arbiter" puzzles "$id" --recheck "$work/$id.found.jsonl" "${tables[@]}" --out "$work/$id.kept4.jsonl" -q
  "$work/arbiter" puzzles "$id" --recheck "$work/$id.kept4.jsonl" --deeper 1280000 "${tables[@]}" --out "$here/$id.jsonl" -q
  echo "$id: $(wc -l < "$work/$id.found.jsonl") found in $n games, $(wc -l < "$work/$id.kept4.jsonl") kept at 4x, $(wc -l < "$here/$id.jsonl") at 16x"
}
export -f build
export work here
printf '%s\n' "${games[@]}" | xargs -P "${JOBS:-2}" -L 1 bash -c 'build $0 $1'
