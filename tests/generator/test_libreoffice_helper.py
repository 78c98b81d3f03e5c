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
    """Past its time budget LibreOffice is killed and the failure says why: the budget, the
    load average and the knob that raises it."""
    monkeypatch.setattr(_libreoffice, "time_budget", lambda books: 0.01)
    (tmp_path / "in").mkdir()
    book = _tiny_workbook(tmp_path / "in" / "slow.xlsx")
    done, _ = _libreoffice.recalculate_batch([book], tmp_path / "out", strict=False)
    assert book not in done
    with pytest.raises(pytest.fail.Exception,
                       match=r"within 0 s \(load average .* cores\).*TSS_LO_SECONDS_PER_BOOK"):
        done[book]


def test_the_time_budget_grows_with_the_work_and_the_load(monkeypatch):
    monkeypatch.setattr(_libreoffice, "load_per_core", lambda: 0.5)
    idle = _libreoffice.time_budget(8)
    assert idle == _libreoffice.BASE_SECONDS + 8 * _libreoffice.SECONDS_PER_BOOK
    assert _libreoffice.time_budget(16) > idle
    monkeypatch.setattr(_libreoffice, "load_per_core", lambda: 4.0)   # load 8 on 2 cores
    assert _libreoffice.time_budget(8) == 4 * idle


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
