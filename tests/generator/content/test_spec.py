"""Specs: the bundled ones load; every mistake is one line naming the file and the key."""

from __future__ import annotations

from pathlib import Path

import pytest
from topicsetsize.generator import bundled_spec, load_spec, spec_from_dict, with_matrices
from topicsetsize.generator.content.spec import EXAMPLE, SCORES

from topicsetsize.errors import InputError

BASE = {"title": "t", "m": [2, 10], "min_d": [0.1],
        "measures": [{"name": "x", "variance": 0.05}]}


def _write(tmp_path, text: str, name: str = "s.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_bundled_ntcir_spec():
    spec = load_spec(bundled_spec())
    assert (spec.alpha, spec.beta, spec.m, spec.min_d) == (0.05, 0.2, (2, 10, 20, 30, 50),
                                                           (0.02, 0.05, 0.1, 0.2))
    assert [m.group for m in spec.measures] == ["I"] * 2 + ["II"] * 3 + ["III"] * 3 + \
        ["IV"] * 2 + ["V"] * 2
    # the bold variances of Table 1 (tests/data/airs2016_table1_variances.csv)
    assert [m.variance for m in spec.measures] == [0.0601, 0.0127, 0.0259, 0.0215, 0.0072,
                                                   0.0570, 0.0176, 0.0077, 0.1144, 0.0193,
                                                   0.2130, 0.0204]
    assert spec.output == "ntcir12_std_ab.xlsx" and spec.calculators["anova"]["m"] == 2


def test_ntcir_variances_are_the_bold_rows_of_table1(data_dir):
    import csv

    with open(data_dir / "airs2016_table1_variances.csv", newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["used_in_table2"]]
    bold = sorted([float(r["var_raw"]) for r in rows if r["used_in_table2"] == "raw+std"]
                  + [float(r["var_std_ab"]) for r in rows])
    assert sorted(m.variance for m in load_spec(bundled_spec()).measures) == bold


def test_bundled_example_spec():
    spec = load_spec(bundled_spec("trec2010_web_example"))
    assert spec.matrices[0].path == EXAMPLE and spec.matrices[0].scores == SCORES
    assert spec.matrices[0].resolved_path() is None


@pytest.mark.parametrize("data, message", [
    ({**BASE, "alpah": 0.05}, "s.toml: unknown key 'alpah' (allowed: title, "),
    ({**BASE, "beta": 2}, "s.toml: beta: beta=2 is out of range: allowed 1e-09 <= beta < 1"),
    ({**BASE, "alpha": "0.05"}, "s.toml: alpha: alpha='0.05' is not a number"),
    ({**BASE, "m": [2, 1]}, "s.toml: m: m=1 is out of range: allowed 2 <= m <= 1000000000"),
    ({**BASE, "m": [2, 2.5]}, "s.toml: m: m=2.5 is not a whole number"),
    ({**BASE, "m": [2, 2]}, "s.toml: m: [2, 2] repeats a value"),
    ({**BASE, "min_d": []}, "s.toml: min_d: [] must be a non-empty list of numbers"),
    ({k: v for k, v in BASE.items() if k != "m"}, "s.toml: m: is missing"),
    ({k: v for k, v in BASE.items() if k != "title"}, "s.toml: title: is missing"),
    ({**BASE, "measures": [{"name": "x", "variance": -1}]},
     "s.toml: measures[1].variance: variance=-1 is out of range: allowed variance > 0"),
    ({**BASE, "measures": [{"name": "x"}]}, "s.toml: measures[1].variance: is missing"),
    ({**BASE, "measures": [{"name": "x", "variance": 0.1, "colour": 1}]},
     "s.toml: unknown key 'measures[1].colour'"),
    ({**BASE, "measures": [{"name": "x", "variance": 0.1}, {"name": "x", "variance": 0.2}]},
     "s.toml: name 'x' is used twice"),
    ({**BASE, "matrices": [{"path": "a.csv", "scores": ["raw", "std"]}]},
     "s.toml: matrices[1].scores=['raw', 'std'] is not allowed"),
    ({**BASE, "matrices": [{"name": "m"}]}, "s.toml: matrices[1].path: is missing"),
    ({**BASE, "matrices": [{"path": "a.csv", "topic_ids": "no"}]},
     "s.toml: matrices[1].topic_ids='no' is not allowed: give true"),
    ({**BASE, "chart_method": "fast"}, "s.toml: chart_method: 'fast' is not one of"),
    ({**BASE, "calculators": {"anova": {"beta": 0.8}}},
     "s.toml: calculators.anova.beta: beta=0.8 asks for a power of only 1 - beta = 0.2 (power "
     "0.8 is beta=0.2: did you mean beta=0.2?): allowed 1e-09 <= beta <= 0.5"),
    # the spec's own α and β too, which the Decide sheet and the tables are computed at (an
    # input review, 2026-12-07: alpha = 0.95 built them silently, though no input cell takes it)
    ({**BASE, "alpha": 0.95},
     "s.toml: alpha: alpha=0.95 is the probability of a Type I error, not a confidence level: "
     "a confidence level c is alpha = 1 - c (did you mean alpha=0.05?): allowed 1e-06 <= "
     "alpha <= 0.5"),
    ({**BASE, "beta": 0.6}, "s.toml: beta: beta=0.6 asks for a power of only 1 - beta = 0.4"),
    ({**BASE, "calculators": {"anova": {"m": 5000}}},
     "s.toml: calculators.anova.m: m=5000 is outside the workbook's range: allowed "
     "2 <= m <= 1000"),
    ({**BASE, "calculators": {"anova": {"min_dt": 0.1}}},
     "s.toml: unknown key 'calculators.anova.min_dt'"),
    ({**BASE, "calculators": {"power": {}}}, "s.toml: unknown key 'calculators.power'"),
    ({**BASE, "measures": {"name": "x"}}, "s.toml: measures: must be an array of tables"),
])
def test_bad_specs_give_one_line(data, message):
    with pytest.raises(InputError) as err:
        spec_from_dict(data, source="s.toml")
    text = str(err.value)
    assert text.startswith(message) and "\n" not in text


def test_bad_files(tmp_path):
    with pytest.raises(FileNotFoundError, match="no such spec file"):
        load_spec(tmp_path / "missing.toml")
    bad = _write(tmp_path, 'title = "t"\nm = [2,\n')
    with pytest.raises(InputError, match=r"s\.toml: not valid TOML: ") as err:
        load_spec(bad)
    assert "\n" not in str(err.value)
    binary = tmp_path / "b.toml"
    binary.write_bytes(b"\xff\xfe\x00title")
    with pytest.raises(InputError, match=r"b\.toml: not a text \(UTF-8\) TOML file"):
        load_spec(binary)


def test_output_defaults_to_the_spec_name_and_paths_are_relative_to_it(tmp_path):
    path = _write(tmp_path, 'title = "t"\nm = [2]\nmin_d = [0.1]\n'
                            '[[matrices]]\npath = "data/scores.csv"\n', name="track.toml")
    spec = load_spec(path)
    assert spec.output == "track.xlsx"
    assert spec.matrices[0].name == "scores"
    assert spec.matrices[0].resolved_path() == tmp_path / "data" / "scores.csv"


def test_with_matrices_adds_raw_and_std_ab_and_keeps_names_unique(tmp_path):
    a = tmp_path / "x.csv"
    a.write_text("topic,r1,r2\nt1,0.1,0.2\nt2,0.3,0.1\n")
    spec = with_matrices(spec_from_dict({"title": "t"}), [a, a])
    assert [m.name for m in spec.matrices] == ["x", "x (2)"]
    assert spec.matrices[0].scores == SCORES and spec.m     # default grids filled in
    with pytest.raises(FileNotFoundError, match="no such score matrix"):
        with_matrices(spec, [tmp_path / "nope.csv"])


def test_with_matrices_names_them_in_the_title_and_keeps_the_spec_s_own(tmp_path):
    """A workbook of the default spec built with --matrix starts its calculators from the matrix:
    its title says so, not "NTCIR-12 topic set sizes" alone; the spec's title and description,
    whose tables stay, open the description. Without a matrix, nothing changes."""
    a = tmp_path / "robust.csv"
    a.write_text("topic,r1,r2\nt1,0.1,0.2\nt2,0.3,0.1\n")
    default = load_spec(bundled_spec())
    spec = with_matrices(default, [a])
    assert spec.title == "Topic set sizes from the score matrix robust"
    assert spec.description == f"Also the tables of the spec: {default.title}. " \
                               f"{default.description}"
    two = with_matrices(spec_from_dict({"title": "t"}), [a, a])
    assert two.title == "Topic set sizes from the score matrices robust, robust (2)"
    assert two.description == "Also the tables of the spec: t."
    assert with_matrices(default, []) == default


def test_grids_per_part_and_per_measure():
    spec = spec_from_dict({"title": "t", "m": [2, 10], "min_d": [0.1, 0.2],
                           "parts": {"V": {"m": [2, 100]}, "W": {"min_d": [0.5]}},
                           "measures": [{"name": "a", "variance": 0.1, "group": "V"},
                                        {"name": "b", "variance": 0.1, "group": "W",
                                         "m": [3]},
                                        {"name": "c", "variance": 0.1}]})
    assert [spec.grid(x) for x in spec.measures] == [((2, 100), (0.1, 0.2)), ((3,), (0.5,)),
                                                     ((2, 10), (0.1, 0.2))]


@pytest.mark.parametrize("data, message", [
    ({"parts": {"V": {"m": [1]}}}, "s.toml: parts.V.m: m=1 is out of range"),
    ({"parts": {"V": {"k": [2]}}}, "s.toml: unknown key 'parts.V.k'"),
    ({"parts": {"V": {"min_d": []}}}, "s.toml: parts.V.min_d: [] must be a non-empty list"),
    ({"measures": [{"name": "x", "variance": 0.1, "m": [2, 2]}]},
     "s.toml: measures[1].m: [2, 2] repeats a value"),
])
def test_bad_grids_are_one_line_errors(data, message):
    with pytest.raises(InputError) as err:
        spec_from_dict({"title": "t", "m": [2], "min_d": [0.1], **data}, source="s.toml")
    assert str(err.value).startswith(message) and "\n" not in str(err.value)


def test_matrix_topic_ids_key_reaches_the_reader(tmp_path):
    # A matrix without a topic-id column whose first column could be ids: the spec settles it.
    from topicsetsize.generator.content.matrix_estimates import estimate

    (tmp_path / "m.csv").write_text("a,b,c\n1,0.5,0.25\n2,0.25,0.5\n3,0.75,0.5\n")
    spec = spec_from_dict({**BASE, "matrices": [{"path": "m.csv", "topic_ids": False}]},
                          source="s.toml", base=tmp_path)
    assert spec.matrices[0].topic_ids is False
    assert estimate(spec.matrices[0]).summary.runs == 3
    spec = spec_from_dict({**BASE, "matrices": [{"path": "m.csv"}]}, source="s.toml",
                          base=tmp_path)
    with pytest.raises(InputError, match="distinct whole numbers"):
        estimate(spec.matrices[0])
