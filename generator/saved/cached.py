"""Cached values of the formula cells, so that previewers show the workbook as computed.

openpyxl writes every formula cell without a result (``<v/>``). A spreadsheet computes them
on opening, but previewers (mail clients, file browsers, ``pandas.read_excel``, Excel's
Protected View) show only stored results, so tables, checks and answers looked blank.
:func:`write_with_cached_values` writes the value of every formula cell (computed by
:func:`generator.saved.evaluator.evaluate_workbook`) into the saved file as its cached result. The
workbook still asks for a full recalculation on opening (``fullCalcOnLoad``).

:func:`answer_values` computes the calculators' answers at their starting inputs with the
engine instead: the tests use it as an independent check of the evaluated values.
"""

from __future__ import annotations

import re
import zipfile
from html import escape as _html_escape

import topicsetsize as tss
from topicsetsize.errors import InputError

from ..spreadsheet.layout import STATUS_OK, TOO_LARGE
from .evaluator import ErrorValue

__all__ = ["answer_values", "write_with_cached_values", "named_values"]

_NOT_REACHED = "not reached at this n"


def _n(fn, *args, **kw):
    try:
        return fn(*args, **kw)
    except tss.SearchLimitError:
        return TOO_LARGE


def _min(fn, *args, **kw):
    if 1 - kw["beta"] <= kw["alpha"] + 1e-12:
        return 0          # no effect needed: the sheet's smallest effect already has the power
    try:
        return fn(*args, **kw)
    except InputError:
        return _NOT_REACHED


def _input(wb, name):
    sheet, coord = next(iter(wb.defined_names[name].destinations))
    return wb[sheet][coord.replace("$", "")].value


def answer_values(wb) -> dict[str, object]:
    """{defined name: engine value} for the answers at the workbook's starting inputs.

    Only names whose value the engine gives exactly as the sheet shows it; the rest stay
    without a cached value (they are computed on opening).
    """
    g = {name: _input(wb, name) for name in wb.defined_names
         if name.split("_", 1)[0] in ("anova", "ttest", "ci")
         and not name.endswith(("_ok",))}
    out = {"anova_status": STATUS_OK, "ttest_status": STATUS_OK, "ci_status": STATUS_OK}
    a = dict(alpha=g["anova_alpha"], beta=g["anova_beta"], m=g["anova_m"])
    n = g["anova_your_n"]
    for method in ("legacy", "exact"):
        out[f"anova_n_{method}"] = _n(tss.anova_n, a["alpha"], a["beta"], g["anova_min_d"],
                                      g["anova_variance"], a["m"], method=method)
        p = tss.anova_power(n, m=a["m"], min_d=g["anova_min_d"], variance=g["anova_variance"],
                            alpha=a["alpha"], method=method)
        out[f"anova_power_{method}"] = "undefined" if p != p else p
        out[f"anova_min_d_at_n_{method}"] = _min(
            tss.anova_min_d, n, m=a["m"], variance=g["anova_variance"], alpha=a["alpha"],
            beta=a["beta"], method=method)
    t_alpha, t_beta, v_t = g["ttest_alpha"], g["ttest_beta"], g["ttest_variance_t"]
    effect2 = g.get("ttest_min_delta_t") or g["ttest_min_dt"] / v_t ** 0.5
    n = g["ttest_your_n"]
    for method in ("legacy", "exact"):
        out[f"ttest_n_{method}"] = _n(tss.ttest_n, t_alpha, t_beta, g["ttest_min_dt"], v_t,
                                      method=method)
        out[f"ttest_delta_t_n_{method}"] = _n(tss.ttest_n_effect, t_alpha, t_beta, effect2,
                                              method=method)
        out[f"ttest_power_{method}"] = tss.ttest_power(n, min_dt=g["ttest_min_dt"],
                                                       variance_t=v_t, alpha=t_alpha,
                                                       method=method)
        out[f"ttest_min_dt_at_n_{method}"] = _min(tss.ttest_min_dt, n, variance_t=v_t,
                                                  alpha=t_alpha, beta=t_beta, method=method)
    out.update(_unpaired_and_two_way(wb))
    out["ci_n"] = _n(tss.ci_n, g["ci_alpha"], g["ci_delta"], g["ci_variance_t"])
    out["ci_width_at_n"] = tss.ci_delta(g["ci_your_n"], variance_t=g["ci_variance_t"],
                                        alpha=g["ci_alpha"])
    return out


def _unpaired_and_two_way(wb) -> dict[str, object]:
    """The answers of the ANOVA2, TTEST2 and CI2 sheets (exact method only)."""
    g = {name: _input(wb, name) for name in wb.defined_names
         if name.split("_", 1)[0] in ("anova2", "ttest2", "ci2")
         and name.rsplit("_", 1)[-1] not in ("ok", "status")}
    out = {f"{key}_status": STATUS_OK for key in ("anova2", "ttest2", "ci2")}
    a = dict(alpha=g["anova2_alpha"], m=g["anova2_m"], variance=g["anova2_variance"])
    out["anova2_n"] = _n(tss.anova2_n, a["alpha"], g["anova2_beta"], g["anova2_min_d"],
                         a["variance"], a["m"])
    out["anova2_power"] = tss.anova2_power(g["anova2_your_n"], min_d=g["anova2_min_d"], **a)
    out["anova2_min_d_at_n"] = _min(tss.anova2_min_d, g["anova2_your_n"], beta=g["anova2_beta"],
                                    **a)
    out["ttest2_n"] = _n(tss.ttest2_n, g["ttest2_alpha"], g["ttest2_beta"], g["ttest2_min_d"],
                         g["ttest2_variance"])
    out["ttest2_power"] = tss.ttest2_power(g["ttest2_your_n"], min_d=g["ttest2_min_d"],
                                           variance=g["ttest2_variance"],
                                           alpha=g["ttest2_alpha"])
    out["ci2_n"] = _n(tss.ci2_n, g["ci2_alpha"], g["ci2_delta"], g["ci2_variance"])
    out["ci2_width_at_n"] = tss.ci2_delta(g["ci2_your_n"], variance=g["ci2_variance"],
                                          alpha=g["ci2_alpha"])
    return out


def write_with_cached_values(source, target, values: dict[str, dict[str, object]]) -> None:
    """Copy the saved workbook ``source`` (a path or a binary file object) to ``target``, with
    ``values`` ({sheet: {cell: value}}, e.g. from :func:`saved.evaluator.evaluate_workbook`)
    stored as the cached results of those formula cells.

    ``target`` is written directly: the caller makes it a temporary file that it renames
    (:func:`topicsetsize.atomic.atomic_path`), so a crash never leaves half a workbook.
    """
    with zipfile.ZipFile(source) as zin, \
            zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        parts = _sheet_parts(zin)
        for item in zin.infolist():
            data = zin.read(item.filename)
            sheet = parts.get(item.filename)
            if sheet in values:
                data = _inject(data.decode("utf-8"), values[sheet]).encode("utf-8")
            zout.writestr(item.filename, data)


def named_values(wb, values: dict[str, object]) -> dict[str, dict[str, object]]:
    """{defined name: value} as {sheet: {cell: value}} (for :func:`write_with_cached_values`)."""
    cells: dict[str, dict[str, object]] = {}
    for name, value in values.items():
        sheet, coord = next(iter(wb.defined_names[name].destinations))
        cells.setdefault(sheet, {})[coord.replace("$", "")] = value
    return cells


def _sheet_parts(z: zipfile.ZipFile) -> dict[str, str]:
    """{zip member of a worksheet: sheet name}, from workbook.xml and its relationships."""
    book = z.read("xl/workbook.xml").decode("utf-8")
    rels = z.read("xl/_rels/workbook.xml.rels").decode("utf-8")
    targets = {m.group(2): m.group(1) for m in re.finditer(
        r'<Relationship[^>]*?Target="([^"]+)"[^>]*?Id="([^"]+)"', rels)}
    targets.update({m.group(1): m.group(2) for m in re.finditer(
        r'<Relationship[^>]*?Id="([^"]+)"[^>]*?Target="([^"]+)"', rels)})
    out = {}
    for m in re.finditer(r'<sheet\b[^>]*?name="([^"]+)"[^>]*?r:id="([^"]+)"', book):
        target = targets[m.group(2)].lstrip("/")
        member = target if target.startswith("xl/") else f"xl/{target}"
        out[member] = _unescape(m.group(1))
    return out


def escape(text: str) -> str:
    """&, < and > as XML entities (what ``xml.sax.saxutils.escape`` does, without its import
    of urllib and ssl, about 60 ms of the workbook's start)."""
    return _html_escape(text, quote=False)


def _unescape(text: str) -> str:
    return (text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"')
            .replace("&apos;", "'").replace("&amp;", "&"))


_FORMULA_CELL = re.compile(
    r'<c r="([A-Z]+[0-9]+)"([^>]*)>(<f>.*?</f>)(?:<v\s*/>|<v>[^<]*</v>)?</c>', re.S)


def _inject(xml: str, values: dict[str, object]) -> str:
    """Put ``<v>`` results into the formula cells ``values`` names (each must be found)."""
    found = set()

    def cell(match):
        coord = match.group(1)
        if coord not in values:
            return match.group(0)
        found.add(coord)
        value = values[coord]
        attrs = re.sub(r'\s+t="[^"]*"', "", match.group(2))
        if isinstance(value, bool):
            return f'<c r="{coord}"{attrs} t="b">{match.group(3)}<v>{int(value)}</v></c>'
        if isinstance(value, ErrorValue):
            return f'<c r="{coord}"{attrs} t="e">{match.group(3)}<v>{escape(value)}</v></c>'
        if isinstance(value, str):
            return f'<c r="{coord}"{attrs} t="str">{match.group(3)}<v>{escape(value)}</v></c>'
        number = float(value)
        text = str(int(number)) if number.is_integer() and abs(number) < 2**53 else repr(number)
        return f'<c r="{coord}"{attrs}>{match.group(3)}<v>{text}</v></c>'

    xml = _FORMULA_CELL.sub(cell, xml)
    missing = sorted(set(values) - found)
    if missing:
        raise RuntimeError(f"cached values: no formula cell {missing[0]} in the sheet XML")
    return xml
