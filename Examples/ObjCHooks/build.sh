#!/usr/bin/env bash
# Builds every hook library of Examples/ObjCHooks — the correct hooks and the naive ones
# under naive/ — with the flags `autotrack cflags` and `autotrack ldflags` print, into
# Examples/ObjCHooks/build/lib<name>.so.
#   bash Examples/ObjCHooks/build.sh [path/to/autotrack]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
autotrack="${1:-}"
if [ -z "$autotrack" ]; then
    (cd "$root" && swift build --product autotrack >/dev/null)
    autotrack="$root/.build/debug/autotrack"
fi
cc=$(command -v clang || echo /opt/swift/usr/bin/clang)
cflags=$("$autotrack" cflags)
ldflags=$("$autotrack" ldflags)
mkdir -p "$here/build"
for source in "$here"/*.m "$here"/naive/*.m; do
    name=$(basename "$source" .m)
    # shellcheck disable=SC2086
    "$cc" -Wall -Wextra -Werror $cflags -o "$here/build/lib$name.so" "$source" $ldflags
    echo "built build/lib$name.so"
done
