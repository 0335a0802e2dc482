#!/usr/bin/env bash
# The runs behind the answers in docs/lab/: each command as it was run.
# Usage: bash docs/lab/runs.sh OUTDIR [PART...]
#   (parts: survey, pommel, ties, skill, variants, control, plots)
# Every run is resumable: running this again continues what was stopped.
# Depth-limited engines and fixed seeds make every game repeatable.
set -euo pipefail
out=${1:?give the folder the runs go into}
shift
parts=${*:-survey pommel ties skill variants control plots}
arbiter=${ARBITER:-arbiter}
lab() { nice -n 10 "$arbiter" lab "$@"; }

# The build the runs are made with: every run.json names it too ("builds"),
# and every game its engines' signatures; build.txt keeps it beside the
# runs for answers.md to quote. A binary made by go run, or outside the
# repository, or with -buildvcs=false (in GOFLAGS too), records no revision:
# build it with 'go build -buildvcs=true ./cmd/arbiter' in the repository.
mkdir -p "$out"
bin=$(command -v "$arbiter")
{
  echo "arbiter $bin, $(date -u +%Y-%m-%dT%H:%MZ)"
  go version -m "$bin" 2>/dev/null | grep -E 'vcs\.(revision|modified|time)' || echo "no revision recorded"
} >>"$out/build.txt"
grep -q vcs.revision "$out/build.txt" || echo "warning: $bin records no revision; its runs name the build 'unknown'" >&2

for part in $parts; do
  case $part in
  survey) # answers 2, 3, 4 and 5: every id, ab at depth 3, 1,000 games each
    for id in pommel pommel-76 eximo checkers-2011 punt-match punt-heks-match punt-heks-match-3p; do
      lab "$id" --player ab --depth 3 --games 1000 --seed 1 --out "$out/survey/$id"
    done ;;
  pommel) # answer 1: Pommel's draws at increasing strength, both boards, both hop rules
    # (hop=friendly at depth 3 is the survey's run of each board)
    for id in pommel pommel-76; do
      for hop in friendly any; do
        for depth in 1 2 3; do
          [ $hop = friendly ] && [ $depth = 3 ] && continue
          lab "$id" -o hop=$hop --player ab --depth $depth --games 1000 --seed 1 --out "$out/pommel/$id-$hop-d$depth"
        done
      done
    done ;;
  ties) # answer 5: three-player ties at depths 1 and 2 (depth 3 is the survey's), then at
    # the strengths docs/strength.md uses: depth 4 (level 5) and 100 ms a move
    for depth in 1 2; do
      lab punt-heks-match-3p --player ab --depth $depth --games 1000 --seed 1 --out "$out/ties/3p-d$depth"
    done
    lab punt-heks-match-3p --player ab --depth 4 --games 300 --seed 1 --out "$out/ties/3p-d4"
    lab punt-heks-match-3p --player ab --movetime 100ms --games 100 --seed 1 --out "$out/ties/3p-100ms" ;;
  variants) # answer 6: the rule variants at the survey's strength, same seed (paired with it)
    o="$out/variants"
    for id in pommel-76 eximo; do
      second=black; [ $id = eximo ] && second=white
      lab $id -o first=$second --player ab --depth 3 --games 1000 --seed 1 --out "$o/$id-first=$second"
      lab $id -o swap=on --player ab --depth 3 --games 1000 --seed 1 --out "$o/$id-swap=on"
    done
    for tb in progress last; do
      lab punt-heks-match-3p -o tiebreak=$tb --player ab --depth 3 --games 1000 --seed 1 --out "$o/3p-tiebreak=$tb"
    done
    lab punt-heks-match-3p -o end=all-stuck -o repetition=scored --player ab --depth 3 --games 1000 --seed 1 \
      --out "$o/3p-end=all-stuck+repetition=scored"
    lab punt-match -o tiebreak=progress --player ab --depth 3 --games 1000 --seed 1 --out "$o/punt-match-tiebreak=progress"
    lab punt-match -o end=all-stuck -o repetition=scored --player ab --depth 3 --games 1000 --seed 1 \
      --out "$o/punt-match-end=all-stuck+repetition=scored"
    for v in ownjump=on sidejump=on; do
      lab checkers-2011 -o $v --player ab --depth 3 --games 300 --seed 1 --out "$o/checkers-2011-$v"
    done ;;
  control) # answer 4: a controlled run: ab against ab that declines every takeover it can avoid
    for id in punt-match punt-heks-match; do
      lab $id --player ab --player ab:avoid=takeover --depth 3 --games 400 --seed 1 --out "$out/control/$id-avoid-takeover"
    done ;;
  plots) # the plots of docs/lab/answers.md, from the runs above
    mkdir -p docs/lab/img/pommel-45 docs/lab/img/pommel-76 docs/lab/img/survey "$out/q1-45" "$out/q1-76"
    for hop in friendly any; do
      for depth in 1 2 3; do
        for b in 45 76; do
          id=pommel; [ $b = 76 ] && id=pommel-76
          src="$out/pommel/$id-$hop-d$depth"
          [ $hop = friendly ] && [ $depth = 3 ] && src="$out/survey/$id"
          ln -sfn "$(cd "$src" && pwd)" "$out/q1-$b/$hop-d$depth"
        done
      done
    done
    # (each compare runs in the runs' folder, so that the runs are named
    # "friendly-d1" or "pommel" in the plots, not by the whole path)
    img=$(pwd)/docs/lab/img
    for b in 45 76; do
      (cd "$out/q1-$b" && "$arbiter" lab compare friendly-d{1,2,3} any-d{1,2,3} --svg "$img/pommel-$b")
    done
    (cd "$out/survey" && "$arbiter" lab compare pommel pommel-76 eximo checkers-2011 punt-match punt-heks-match punt-heks-match-3p \
      --svg "$img/survey")
    # punt-match-signals.svg and skill-pommel.svg are the "who wins" plot of
    # survey/punt-match/report.html and the plot of skill/pommel/skill.html.
    ;;
  skill) # does skill pay? the same engine at one ply more, step by step
    for id in pommel eximo checkers-2011 punt-match; do
      lab skill "$id" --player ab --depth 1 --steps 3 --games 200 --seed 1 --out "$out/skill/$id"
    done ;;
  *) echo "unknown part $part: survey, pommel, ties, skill, variants, control or plots" >&2; exit 2 ;;
  esac
done
