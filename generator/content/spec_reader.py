"""Reading and validating a workbook spec (:mod:`content.spec`): from a TOML file or a dict.

Every error is one line that names the file and the key (``ntcir.toml: measures[2].variance=-1
is out of range: allowed variance > 0``).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path, PurePosixPath, PureWindowsPath

from topicsetsize.decide.anova_designs import DESIGN_METHODS, check_design
from topicsetsize.errors import InputError
from topicsetsize.params import METHODS
from topicsetsize.tomlfile import read_toml

from .calculators import calculators
from .inputs import check_input
from .spec import (
    BUDGET_KEYS,
    DECIDE_KEYS,
    DECIDE_MS,
    EXAMPLE,
    GRID_KEYS,
    MATRIX_FLAGS,
    MATRIX_KEYS,
    MEASURE_KEYS,
    POOL_KEYS,
    POOL_OPTIONAL,
    SCORES,
    TOP_KEYS,
    MatrixSpec,
    Measure,
    Spec,
)
from .spec_keys import SpecKeys

__all__ = ["load_spec", "spec_from_dict", "with_matrices"]


def load_spec(path, *, ignore_output: bool = False) -> Spec:
    """Read and validate a spec file.

    Parameters
    ----------
    path : str or path-like
        A TOML file.
    ignore_output : bool
        The workbook goes elsewhere (``--out``): the spec's ``output`` is neither used nor
        checked (a shared spec's ``../x.xlsx`` is refused only when it would be written).

    Returns
    -------
    Spec

    Raises
    ------
    FileNotFoundError
        No such file.
    ValueError
        One line naming the file and the offending key.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "s.toml"
    >>> _ = p.write_text('title = "t"\\nm = [2, 10]\\nmin_d = [0.1]\\n'
    ...                  '[[measures]]\\nname = "x"\\nvariance = 0.05\\n')
    >>> load_spec(p).measures
    (Measure(name='x', variance=0.05, group='', source='', m=(), min_d=(), interval=None),)
    >>> _ = p.write_text('title = "t"\\nbeta = 2\\n')
    >>> load_spec(p)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: .../s.toml: beta: beta=2 is out of range: allowed 1e-09 <= beta < 1
    """
    path = Path(path)
    if not path.exists() or path.is_dir():
        raise FileNotFoundError(f"{path}: no such spec file")
    data = read_toml(path)          # read once: a pipe (<(...)) is a spec too
    if ignore_output and isinstance(data, dict):
        data = {key: value for key, value in data.items() if key != "output"}
    # relative matrix paths: from the spec's folder; from a pipe's, the current folder
    spec = spec_from_dict(data, source=str(path), base=path.parent if path.is_file() else Path())
    return spec if "output" in data else replace(spec, output=path.stem + ".xlsx")


def spec_from_dict(data: dict, *, source: str = "<spec>", base: Path | None = None) -> Spec:
    """Validate a spec given as a dict (the parsed TOML).

    ``source`` names the spec in error messages; ``base`` is the folder that relative matrix
    paths are taken from.

    >>> spec_from_dict({"title": "t", "m": [2], "min_d": [0.1],
    ...                 "measures": [{"name": "x", "variance": -1}]}, source="s.toml")
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: s.toml: measures[1].variance: variance=-1 is out of range: allowed
    variance > 0
    """
    where = SpecKeys(source)
    if not isinstance(data, dict):
        raise InputError(f"{source}: a spec is a table of keys, got {type(data).__name__}")
    where.keys(data, TOP_KEYS, "")
    title = where.text(data, "title", required=True)
    measures = tuple(_measure(where, k, item) for k, item in
                     enumerate(where.table_list(data, "measures"), start=1))
    matrices = tuple(_matrix(where, k, item, base) for k, item in
                     enumerate(where.table_list(data, "matrices"), start=1))
    names = [x.name for x in measures] + [x.name for x in matrices]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise InputError(f"{source}: name {dup!r} is used twice (measure and matrix names "
                         "must be unique)")
    tables = bool(measures or matrices)
    spec = Spec(
        title=title,
        description=where.text(data, "description"),
        alpha=where.number(data, "alpha", "alpha", default=0.05),
        beta=where.number(data, "beta", "beta", default=0.20),
        m=tuple(int(x) for x in where.grid(data, "m", "m", required=tables)),
        min_d=tuple(float(x) for x in where.grid(data, "min_d", "min_d", required=tables)),
        measures=measures,
        matrices=matrices,
        calculators=_calculators(where, data.get("calculators", {})),
        decide=_decide(where, data.get("decide", {})),
        requirements=tuple(_requirement(where, k, item) for k, item in
                           enumerate(where.table_list(data, "requirements"), start=1)),
        pool_depths=_pool_depths(where, where.table_list(data, "pool_depths")),
        budget=_budget(where, data.get("budget"), "pool_depths" in data),
        parts=_parts(where, data.get("parts", {})),
        chart_method=where.choice(data, "chart_method", METHODS, default="legacy"),
        output=_output(where, data),
        source=source,
    )
    return spec


def with_matrices(spec: Spec, paths, *, measure: str | None = None, fmt: str | None = None,
                  transpose: bool = False, drop_incomplete_topics: bool = False,
                  topic_ids: bool | None = None) -> Spec:
    """``spec`` with a score matrix added per path (``--matrix FILE``), raw and std-AB.

    ``measure`` picks the measure of trec_eval / long-format files (``--measure``); ``fmt``,
    ``transpose``, ``drop_incomplete_topics`` and ``topic_ids`` are passed to
    :func:`topicsetsize.read_matrix` (``--format``, ``--transpose``,
    ``--drop-incomplete-topics``, ``--topic-ids``/``--no-topic-ids``). The calculators and
    Decide start from the first added matrix, and the title names the added matrices (the
    spec's own title, whose tables stay, opens the description).
    """
    from topicsetsize.matrices.readers import holds_measures

    used = {x.name for x in spec.measures} | {x.name for x in spec.matrices}
    extra = []
    for p in paths:
        path = Path(p)
        if not path.exists():
            raise FileNotFoundError(f"{path}: no such score matrix file or folder")
        # the measure read from a long-format, trec_eval or .xlsx file named with the file (a
        # P@10 workbook must not read as the AP one of the same file); not a wide file's
        stem = (f"{path.stem} ({measure})" if measure and holds_measures(path, fmt)
                else path.stem)
        name = stem or str(path)
        k = 2
        while name in used:
            name, k = f"{stem} ({k})", k + 1
        used.add(name)
        # absolute, not resolved: a pipe's link (/dev/stdin) resolves to no file
        extra.append(MatrixSpec(name=name, path=os.path.abspath(path), measure=measure, fmt=fmt,
                                transpose=transpose, topic_ids=topic_ids,
                                drop_incomplete_topics=drop_incomplete_topics))
    if extra and not spec.m:
        spec = replace(spec, m=(2, 10, 20, 30, 50), min_d=(0.02, 0.05, 0.1, 0.2))
    if not extra:
        return spec
    # A workbook built from a matrix starts every calculator and Decide from it (issue 15.4):
    # the spec's own starting variances give way to the first added matrix's estimates.
    calculators = {calc: {k: v for k, v in values.items() if k not in _VARIANCE_KEYS}
                   for calc, values in spec.calculators.items()}
    decide = {k: v for k, v in spec.decide.items() if k not in _VARIANCE_KEYS}
    # The title names what the calculators start from; the spec's own title and description,
    # which its tables still answer, follow as the description.
    names = ", ".join(x.name for x in extra)
    described = f"Also the tables of the spec: {spec.title}." + (
        f" {spec.description}" if spec.description else "")
    return replace(spec, matrices=spec.matrices + tuple(extra), calculators=calculators,
                   decide=decide, start_from=extra[0].name,
                   title=f"Topic set sizes from the score "
                         f"{'matrices' if len(extra) > 1 else 'matrix'} {names}",
                   description=described)


#: The calculator inputs that a matrix's estimate replaces.
_VARIANCE_KEYS = ("variance", "variance_t")


def _measure(where, k, item) -> Measure:
    key = f"measures[{k}]"
    where.is_table(item, key)
    where.keys(item, MEASURE_KEYS, key)
    m, min_d = _grids(where, item, key)
    return Measure(name=where.text(item, "name", required=True, prefix=key),
                   variance=where.number(item, "variance", "variance", required=True, prefix=key),
                   group=where.text(item, "group", prefix=key),
                   source=where.text(item, "source", prefix=key), m=m, min_d=min_d)


def _grids(where, item: dict, key: str):
    """The optional ``m`` and ``min_d`` lists of a measure or a part."""
    m = tuple(int(x) for x in where.grid(item, "m", "m", required=False, prefix=key))
    min_d = tuple(float(x) for x in where.grid(item, "min_d", "min_d", required=False,
                                               prefix=key))
    return m, min_d


def _parts(where, data) -> dict:
    where.is_table(data, "parts")
    out = {}
    for group, values in data.items():
        key = f"parts.{group}"
        where.is_table(values, key)
        where.keys(values, GRID_KEYS, key)
        m, min_d = _grids(where, values, key)
        out[group] = {k: v for k, v in (("m", m), ("min_d", min_d)) if v}
    return out


def _matrix(where, k, item, base) -> MatrixSpec:
    key = f"matrices[{k}]"
    where.is_table(item, key)
    where.keys(item, MATRIX_KEYS, key)
    path = where.text(item, "path", required=True, prefix=key)
    scores = item.get("scores", list(SCORES))
    if isinstance(scores, str):
        scores = [scores]
    if not isinstance(scores, list) or not scores or any(
            not isinstance(s, str) or s.lower() not in SCORES for s in scores):
        raise InputError(f"{where.source}: {key}.scores={scores!r} is not allowed: give a "
                         f"list of {', '.join(repr(s) for s in SCORES)}")
    flags = {flag: item.get(flag) for flag in MATRIX_FLAGS}
    for flag, value in flags.items():
        if value is not None and not isinstance(value, bool):
            raise InputError(f"{where.source}: {key}.{flag}={value!r} is not allowed: give "
                             f"{MATRIX_FLAGS[flag]}")
    default_name = "TREC 2010 Web AP (example)" if path == EXAMPLE else Path(path).stem
    return MatrixSpec(name=where.text(item, "name", prefix=key) or default_name,
                      path=path, measure=where.text(item, "measure", prefix=key) or None,
                      scores=tuple(dict.fromkeys(s.lower() for s in scores)),
                      group=where.text(item, "group", prefix=key), base=base,
                      **{flag: value for flag, value in flags.items() if value is not None})


def _calculators(where, data) -> dict:
    where.is_table(data, "calculators")
    declared = {c.key: c.inputs + c.second_style for c in calculators()}
    where.keys(data, tuple(declared), "calculators")
    out = {}
    for calc, values in data.items():
        key = f"calculators.{calc}"
        where.is_table(values, key)
        where.keys(values, tuple(i.key for i in declared[calc]), key)
        out[calc] = {}
        for name, value in values.items():
            try:
                out[calc][name] = check_input(name, value)
            except InputError as exc:
                raise InputError(f"{where.source}: {key}.{name}: {exc}") from None
    return out


def _decide(where, data) -> dict:
    """``[decide]``: the Decide sheet's candidate n and minD, its m list, the variances of
    its precomputed minimum detectable minD, and the recommendation's rounding, design and
    method."""
    where.is_table(data, "decide")
    where.keys(data, DECIDE_KEYS, "decide")
    out = {"m": tuple(int(x) for x in where.grid(data, "m", "m", required=False,
                                                 prefix="decide")) or DECIDE_MS,
           "round_to": int(where.number(data, "round_to", "round_to", default=10,
                                        prefix="decide")),
           **dict(zip(("design", "method"), _design(where, data, "decide")))}
    for key, param in (("n", "n"), ("min_d", "min_d")):
        if key in data:
            out[key] = where.number(data, key, param, prefix="decide")
    variance = data.get("variance")
    if variance is not None:
        values = variance if isinstance(variance, list) else [variance]
        out["variance"] = tuple(float(x) for x in where.grid({"variance": values}, "variance",
                                                             "variance", required=True,
                                                             prefix="decide"))
    return out


def _design(where, data: dict, table: str) -> tuple[str, str]:
    """A table's ``design`` and ``method`` (by default the design's own; the two-way ANOVA has
    no legacy one), a conflict named by the spec's keys."""
    design = where.choice(data, "design", tuple(DESIGN_METHODS), default="anova", prefix=table)
    method = where.choice(data, "method", METHODS, default="", prefix=table) \
        if "method" in data else None
    try:
        return check_design(design, method, said=f'{table}.{{}} = "{{}}"'.format)
    except InputError as exc:
        where.fail(table, str(exc))


def _output(where: SpecKeys, data: dict) -> str:
    """The spec's ``output``: a relative name that stays below the folder it is written from.

    A shared spec must not write anywhere: an absolute path, a drive, or a ``..`` is refused;
    the command line's ``--out`` (``write_workbook``'s ``out``) writes elsewhere. ``topicsetsize
    workbook SPEC.toml`` writes it relative to the spec file's folder; a bundled spec (given by
    name) writes it relative to the current folder.

    >>> _output(SpecKeys("s.toml"), {"output": "out/w.xlsx"})
    'out/w.xlsx'
    >>> _output(SpecKeys("s.toml"), {"output": "../w.xlsx"})
    Traceback (most recent call last):
    ...
    topicsetsize.InputError: s.toml: output: '../w.xlsx' must be a relative file name without
    '..' (a spec writes below its own folder; --out writes elsewhere)
    """
    text = where.text(data, "output")
    if not text:
        return "topicsetsize.xlsx"
    posix, windows = PurePosixPath(text), PureWindowsPath(text)
    if posix.is_absolute() or windows.is_absolute() or windows.drive or windows.root \
            or ".." in windows.parts:
        where.fail("output", f"{text!r} must be a relative file name without '..' (a spec "
                   "writes below its own folder; --out writes elsewhere)")
    return text


def _requirement(where, k: int, item) -> dict:
    """One ``[[requirements]]`` row, checked by the engine (label kept as plain text)."""
    from topicsetsize import check_requirement

    key = f"requirements[{k}]"
    where.is_table(item, key)
    try:
        return check_requirement(item, where=key)
    except InputError as exc:
        raise InputError(f"{where.source}: {exc}") from None


def _pool_depths(where, rows) -> tuple[dict, ...]:
    out = []
    for k, item in enumerate(rows, start=1):
        key = f"pool_depths[{k}]"
        where.is_table(item, key)
        where.keys(item, (*POOL_KEYS, *POOL_OPTIONAL), key)
        row = {name: where.number(item, name, param, required=True, prefix=key)
               for name, param in POOL_KEYS.items()}
        for name, param in POOL_OPTIONAL.items():
            if name in item:
                row[name] = where.number(item, name, param, prefix=key)
        if row.get("variance_high", row["variance"]) < row["variance"]:
            where.fail(f"{key}.variance_high", f"variance_high={row['variance_high']:.10g} is "
                       f"below the variance {row['variance']:.10g}: the upper end of σ̂²'s "
                       "interval is at least σ̂²")
        out.append(row)
    depths = [r["pd"] for r in out]
    dup = next((d for d in depths if depths.count(d) > 1), None)
    if dup is not None:
        where.fail("pool_depths", f"depth pd = {dup} is given twice")
    highs = sum("variance_high" in r for r in out)
    if 0 < highs < len(out):
        where.fail("pool_depths", f"variance_high is given for {highs} of {len(out)} depths: "
                                  "give it for every depth or for none")
    return tuple(out)


def _budget(where, data, has_depths: bool) -> dict:
    """``[budget]``: the number of documents that can be judged and the design (m, minD) the
    pool depths are compared for; required with ``[[pool_depths]]``."""
    if data is None:
        if has_depths:
            where.fail("budget", "is missing: [[pool_depths]] need a [budget] table with "
                                 "documents, m and min_d")
        return {}
    where.is_table(data, "budget")
    where.keys(data, BUDGET_KEYS, "budget")
    if not has_depths:
        where.fail("budget", "needs [[pool_depths]] rows (pd, docs_per_topic, variance)")
    design, method = _design(where, data, "budget")
    return {"documents": where.number(data, "documents", "budget", required=True,
                                      prefix="budget"),
            "m": int(where.number(data, "m", "m", required=True, prefix="budget")),
            "min_d": where.number(data, "min_d", "min_d", required=True, prefix="budget"),
            "method": method, "design": design}
