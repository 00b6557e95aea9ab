# Sourced by ./deathzap and ./run-tests: make sure .venv exists and holds this
# checkout (editable) with its test extras. Re-installs only when pyproject.toml
# is newer than the last install stamp.
set -eu
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$here/.venv"
stamp="$venv/.installed"
py="${PYTHON:-python3}"
if ! "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    echo "deathzap needs Python 3.11 or newer (found: $("$py" --version 2>&1))." >&2
    echo "Set PYTHON=/path/to/python3.11 and try again." >&2
    exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
    echo "Creating $venv ..." >&2
    "$py" -m venv "$venv"
fi
if [ ! -f "$stamp" ] || [ "$here/pyproject.toml" -nt "$stamp" ]; then
    echo "Installing deathzap-tui and its test tools into .venv (first run only) ..." >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$here[test]"
    # An editable install compiles nothing, and PYTHONDONTWRITEBYTECODE (set in some
    # environments) stops Python caching it: compile once, ~90 ms off every start.
    "$venv/bin/python" -m compileall -q "$here/deathzap_tui" >/dev/null
    touch "$stamp"
fi
