#!/usr/bin/env bash
# The layers of ARCHITECTURE.md, checked on every #include: each folder uses only
# the folders below it, and engine/ and sandbox/ never see each other.
cd "$(dirname "$0")/../.."
allowed() {   # allowed FOLDER-OF-FILE INCLUDED-PATH
    case "$1" in
        engine)     [[ $2 == engine/* ]] ;;
        sandbox)    [[ $2 == sandbox/* ]] ;;
        common)     [[ $2 == common/* ]] ;;
        replay)     [[ $2 == replay/* || $2 == engine/* || $2 == common/* ]] ;;
        judge/cli)  true ;;
        judge/*)    [[ $2 != judge/cli/* && $2 != ci/* ]] ;;
        viewer)     [[ $2 == viewer/* || $2 == engine/* ]] ;;
        ci)         [[ $2 == ci/* || $2 == viewer/* || $2 == replay/* || $2 == engine/* || $2 == common/* ]] ;;
        *)          true ;;
    esac
}
bad=0
while IFS= read -r file; do
    dir=${file%/*}
    while IFS= read -r inc; do
        allowed "$dir" "$inc" || { echo "FAIL layers: $file includes $inc"; bad=1; }
    done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file")
done < <(git ls-files 'engine/*.[ch]' 'sandbox/*.[ch]' 'common/*.[ch]' 'replay/*.[ch]' 'judge/*.[ch]' 'ci/*.[ch]' 'viewer/*.[ch]')
[ $bad -eq 0 ] && echo "ok layers: every #include points down (ARCHITECTURE.md)"
exit $bad
