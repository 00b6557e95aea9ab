"""``safefiles.read_regular``: a file read whole within its limit, with memory for
the file, not for the limit (issue 21: a 300 KB journal read with a 32 MB limit took
32 MB first), including a file that grows while it is read."""

from __future__ import annotations

import errno
import os
import tracemalloc
from pathlib import Path

import pytest

from deathzap_tui import safefiles
from deathzap_tui.safefiles import read_regular


def test_a_file_is_read_whole_within_its_limit(tmp_path: Path) -> None:
    file = tmp_path / "f"
    for data in (b"", b"x", os.urandom(70_000)):
        file.write_bytes(data)
        assert read_regular(file, 70_000) == data
    file.write_bytes(b"y" * 70_001)
    with pytest.raises(OSError) as refused:
        read_regular(file, 70_000)
    assert refused.value.errno == errno.EFBIG


def test_a_small_file_takes_memory_for_itself_not_for_the_limit(tmp_path: Path) -> None:
    file = tmp_path / "journal"
    file.write_bytes(b"z" * 300_000)
    tracemalloc.start()
    try:
        assert len(read_regular(file, 32 * 1024 * 1024)) == 300_000
        _now, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000


@pytest.mark.parametrize(("grown", "limit"), [(500, 10_000), (5_000, 1_200)])
def test_a_file_growing_while_read_is_read_to_its_end_or_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, grown: int, limit: int) -> None:
    """The file holds more than its size said when opened (another writer appended):
    the rest is read too, and the limit still holds."""
    file = tmp_path / "journal"
    data = os.urandom(1_000 + grown)
    file.write_bytes(data)
    real = os.fstat

    def earlier(fd: int) -> os.stat_result:
        st = real(fd)
        return os.stat_result((*st[:6], st.st_size - grown, *st[7:]))

    monkeypatch.setattr(safefiles.os, "fstat", earlier)
    if len(data) <= limit:
        assert read_regular(file, limit) == data
    else:
        with pytest.raises(OSError):
            read_regular(file, limit)
