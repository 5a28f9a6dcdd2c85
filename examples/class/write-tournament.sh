#!/bin/sh
# write-tournament.sh [CLASS_DIR] - rewrite the `players:` section of
# CLASS_DIR/tournament.yaml (default: this script's directory): one source
# player per directory of CLASS_DIR/submissions/, named for it, its language
# language guessed from its files (*.java: java, *.cpp/*.cc: cpp, *.c: c,
# *.py: python3; a directory with none of these gets c, and so a
# COMPILE_ERROR that says no source file was found). Everything above
# `players:` is kept. Names other than [A-Za-z0-9._-] are skipped (they
# would need quoting in YAML), with a warning.
set -eu
dir=${1:-$(dirname "$0")}
file=$dir/tournament.yaml
has() { for f in "$1"/$2; do [ -f "$f" ] && return 0; done; return 1; }
{
    sed '/^players:/q' "$file"
    for sub in "$dir"/submissions/*/; do
        name=$(basename "$sub")
        case $name in
        *[!A-Za-z0-9._-]* | .*) echo "write-tournament.sh: skipping '$name': use [A-Za-z0-9._-]" >&2; continue ;;
        esac
        if has "$sub" '*.java'; then language=java
        elif has "$sub" '*.cpp' || has "$sub" '*.cc'; then language=cpp
        elif has "$sub" '*.c'; then language=c
        elif has "$sub" '*.py'; then language=python3
        else language=c
        fi
        printf '  - name: %s\n    source: submissions/%s\n    language: %s\n' "$name" "$name" "$language"
    done
} >"$file.tmp"
mv "$file.tmp" "$file"
