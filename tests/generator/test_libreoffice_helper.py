"""The LibreOffice test helper: skip without LibreOffice, but fail in CI (CI never skips)."""

from __future__ import annotations

import pytest

from . import _libreoffice


def test_missing_libreoffice_skips_locally_and_fails_in_ci(monkeypatch):
    monkeypatch.setattr(_libreoffice, "find_soffice", lambda: None)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="LibreOffice .* not installed"):
        _libreoffice.require_soffice()
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI must not skip"):
        _libreoffice.require_soffice()


def test_batch_inputs_are_checked(tmp_path):
    a, b = tmp_path / "x" / "w.xlsx", tmp_path / "y" / "w.xlsx"
    # the package's own mistake, not a user's: a plain ValueError, never an InputError
    with pytest.raises(ValueError, match="distinct"):
        _libreoffice.recalculate_batch([a, b], tmp_path / "out")


def _tiny_workbook(path):
    import openpyxl

    wb = openpyxl.Workbook()
    wb.active["A1"], wb.active["A2"] = 2, "=A1*21"
    wb.save(path)
    return path


@pytest.mark.libreoffice
def test_a_broken_workbook_fails_alone(tmp_path, monkeypatch):
    """A chunk with one file LibreOffice cannot load is retried one workbook at a time: the
    good ones are recalculated, and only the broken one fails, when it is asked for."""
    import openpyxl

    monkeypatch.setattr(_libreoffice, "CHUNK", 3)
    (tmp_path / "in").mkdir()
    good = [_tiny_workbook(tmp_path / "in" / f"good{k}.xlsx") for k in range(3)]
    broken = tmp_path / "in" / "broken.xlsx"
    broken.write_bytes(b"PK\x03\x04 not a zip archive")
    done, _ = _libreoffice.recalculate_batch([*good[:2], broken, good[2]], tmp_path / "out",
                                             strict=False)
    for path in good:
        assert openpyxl.load_workbook(done[path], data_only=True).active["A2"].value == 42
    assert set(done.failures) == {broken}
    with pytest.raises(pytest.fail.Exception, match="LibreOffice failed .*broken.xlsx"):
        done[broken]
    with pytest.raises(RuntimeError, match="broken.xlsx"):          # strict: the whole call
        _libreoffice.recalculate_batch([broken], tmp_path / "out2")


@pytest.mark.libreoffice
def test_a_time_out_names_its_cause(tmp_path, monkeypatch):
    """Past its time limit LibreOffice is killed and the failure says why: how far it got,
    the limit, the load average and the knob that raises it."""
    monkeypatch.setattr(_libreoffice, "stall_limit", lambda done: 0.01)
    (tmp_path / "in").mkdir()
    book = _tiny_workbook(tmp_path / "in" / "slow.xlsx")
    done, _ = _libreoffice.recalculate_batch([book], tmp_path / "out", strict=False)
    assert book not in done
    with pytest.raises(pytest.fail.Exception, match=r"recalculated 0 of 1 workbook\(s\), then "
                       r"nothing for 0 s \(load average .* cores\).*TSS_LO_SECONDS_PER_BOOK"):
        done[book]


def test_the_time_limit_grows_with_the_load_and_starts_with_the_launch(monkeypatch):
    monkeypatch.setattr(_libreoffice, "load_per_core", lambda: 0.5)
    first, next_ = _libreoffice.stall_limit(0), _libreoffice.stall_limit(3)
    assert first == _libreoffice.BASE_SECONDS + _libreoffice.SECONDS_PER_BOOK
    assert next_ == _libreoffice.SECONDS_PER_BOOK
    monkeypatch.setattr(_libreoffice, "load_per_core", lambda: 4.0)   # load 8 on 2 cores
    assert _libreoffice.stall_limit(0) == 4 * first and _libreoffice.stall_limit(3) == 4 * next_
    monkeypatch.setenv("TSS_LO_SECONDS_PER_BOOK", "120")
    assert _libreoffice.stall_limit(3) == 4 * 120


#: A stand-in for soffice: copies the first ``writes`` inputs to --outdir, one every 0.2 s,
#: then hangs (as LibreOffice at times does, before, between or after its workbooks).
_HANGING = """#!{python}
import shutil, sys, time
args = sys.argv[1:]
out = args[args.index("--outdir") + 1]
for path in args[args.index("--outdir") + 2:][:{writes}]:
    time.sleep(0.2)
    shutil.copy(path, out)
time.sleep(600)
"""


@pytest.mark.slow
@pytest.mark.parametrize("writes", [0, 1])
def test_a_hang_costs_the_time_limit_not_the_chunks_time(tmp_path, monkeypatch, writes):
    """A call that stops writing workbooks (before the first; between two, in the chunk of
    two, and after the last, alone) is killed once it has written nothing for the limit, and
    the chunk is retried one workbook at a time: minutes of a hung LibreOffice cost seconds
    (issue 28.1)."""
    import sys
    import time

    fake = tmp_path / "soffice"
    fake.write_text(_HANGING.format(python=sys.executable, writes=writes))
    fake.chmod(0o755)
    monkeypatch.setattr(_libreoffice, "require_soffice", lambda: str(fake))
    monkeypatch.setattr(_libreoffice, "stall_limit", lambda done: 1.0 if done else 2.0)
    (tmp_path / "in").mkdir()
    books = [_tiny_workbook(tmp_path / "in" / f"w{k}.xlsx") for k in range(2)]
    start = time.monotonic()
    done, _ = _libreoffice.recalculate_batch(books, tmp_path / "out", strict=False)
    took = time.monotonic() - start
    # the chunk, then each workbook alone: each call killed 1-2 s after its last write
    assert took < 3 * (2 + 0.2 * 2 + 0.5) + 10, took
    assert set(done.failures) == set(books) and not dict(done)
    with pytest.raises(pytest.fail.Exception,
                       match=rf"recalculated {min(writes, 1)} of 1 workbook\(s\), then nothing"):
        done[books[0]]


def test_error_values_are_found_except_a_charts_gaps():
    """filled_cells_without_errors counts the filled cells, refuses an error value anywhere,
    and #N/A only off a chart's series (where it is a gap)."""
    import openpyxl
    from openpyxl.chart import Reference, ScatterChart, Series

    wb = openpyxl.Workbook()
    ws = wb.active
    for row in range(1, 4):
        ws.cell(row, 1, row)
        ws.cell(row, 2, row * 2.0)
    ws["B2"] = "#N/A"                       # a gap in the chart's y values: allowed
    chart = ScatterChart()
    chart.series.append(Series(Reference(ws, min_col=2, min_row=1, max_row=3),
                               Reference(ws, min_col=1, min_row=1, max_row=3)))
    ws.add_chart(chart, "D1")
    ws["Z99"] = "text"
    assert _libreoffice.filled_cells_without_errors(wb, "gap") == 7
    for coord, value in (("C2", "#N/A"), ("C1", "#DIV/0!"), ("Z99", "Err:502")):
        ws[coord] = value
        with pytest.raises(AssertionError, match=coord):
            _libreoffice.filled_cells_without_errors(wb, "bad")
        ws[coord] = 1
