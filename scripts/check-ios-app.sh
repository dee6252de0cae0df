#!/usr/bin/env bash
# The iPhone app cannot be type-checked on Linux (no SwiftUI, UIKit or AVFoundation), so this
# checks what can be checked here:
#   1. every .swift file under Apps/iOS and Sources/ReelKitAVFoundation parses (`swiftc -parse`);
#   2. no view of the app does networking or decoding: the app entry (which builds the client and
#      storage) and the keychain store are the only files allowed to.
# Prints how many files it parsed and one line per failure; exits non-zero on any failure.
set -uo pipefail
cd "$(dirname "$0")/.."

SWIFTC="${SWIFTC:-swiftc}"
APP_DIR="Apps/iOS"
# The only files allowed to construct a client or storage, by name.
ALLOWED=("ReelhouseApp.swift" "KeychainCredentialStore.swift")
FORBIDDEN=("URLSession" "JSONDecoder" "JSONEncoder" "ReelClient(" ".client." "Data(contentsOf: URL(string")

if ! command -v "$SWIFTC" >/dev/null 2>&1; then
    echo "check-ios-app: swiftc not found (set SWIFTC or put it on PATH)" >&2
    exit 2
fi

failures=0
parsed=0
files=()
while IFS= read -r -d '' file; do files+=("$file"); done < <(find "$APP_DIR" Sources/ReelKitAVFoundation -name '*.swift' -type f -print0 | sort -z)

if [ "${#files[@]}" -eq 0 ]; then
    echo "FAIL: no Swift files found under $APP_DIR"
    exit 1
fi

for file in "${files[@]}"; do
    if output=$("$SWIFTC" -parse "$file" 2>&1); then
        parsed=$((parsed + 1))
    else
        failures=$((failures + 1))
        first=$(printf '%s\n' "$output" | grep -m1 'error:' || printf '%s\n' "$output" | head -n1)
        echo "FAIL parse: $file: ${first#"$file":}"
    fi
done

for file in "${files[@]}"; do
    case "$file" in "$APP_DIR"/*) ;; *) continue ;; esac
    name=$(basename "$file")
    [ "$name" = "Package.swift" ] && continue
    allowed=0
    for ok in "${ALLOWED[@]}"; do [ "$name" = "$ok" ] && allowed=1; done
    [ "$allowed" -eq 1 ] && continue
    for pattern in "${FORBIDDEN[@]}"; do
        while IFS=: read -r line _; do
            [ -n "$line" ] || continue
            failures=$((failures + 1))
            echo "FAIL view does I/O: $file:$line mentions '$pattern'"
        done < <(grep -nF -- "$pattern" "$file" || true)
    done
done

echo "check-ios-app: parsed $parsed of ${#files[@]} Swift files; $failures failure(s)"
[ "$failures" -eq 0 ]
