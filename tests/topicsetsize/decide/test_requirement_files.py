"""read_requirements(): requirement files (TOML and CSV) read into the same requirements, and
one-line errors that name the file and the line or table."""

from __future__ import annotations

import pytest

from topicsetsize.decide.recommendation import recommend
from topicsetsize.decide.requirement_files import read_requirements
from topicsetsize.errors import InputError

TOML = """\
# requirements of a new collection
[[requirements]]
label = "EN nDCG@3"
variance = 0.0259
m = 10
min_d = 0.10

[[requirements]]
variance = 0.0601
m = 50
min_d = 0.20
"""


def test_read_toml_and_csv(tmp_path):
    toml = tmp_path / "needs.toml"
    toml.write_text(TOML)
    table = tmp_path / "needs.csv"
    table.write_text('label,variance,m,min_d\n"EN nDCG@3",0.0259,10,0.10\n\n,0.0601,50,0.2\n')
    expected = [{"label": "EN nDCG@3", "variance": 0.0259, "m": 10, "min_d": 0.1},
                {"label": None, "variance": 0.0601, "m": 50, "min_d": 0.2}]
    assert read_requirements(toml) == expected == read_requirements(table)
    # Columns in any order, label optional; a UTF-8 byte-order mark is fine.
    other = tmp_path / "other.csv"
    other.write_text("\ufeffmin_d,m,variance\n0.2,50,0.0601\n", encoding="utf-8")
    assert read_requirements(other) == expected[1:]
    assert recommend(read_requirements(toml)).n == 100     # 82 and 91 topics


@pytest.mark.parametrize("name, text, message", [
    ("a.toml", "[[requirements]]\nvariance = \n", "a.toml: not valid TOML: "),
    ("a.toml", "title = 'x'\n", "a.toml: unknown key 'title' (allowed: [[requirements]] tables)"),
    ("a.toml", "", "a.toml: no [[requirements]] tables"),
    ("a.toml", "requirements = 3\n", "a.toml: no [[requirements]] tables"),
    ("a.toml", "requirements = [3]\n",
     "a.toml: [[requirements]] table 1: int is not a mapping"),
    ("a.toml", TOML + "[[requirements]]\nlabel='JA'\nvariance=0.05\nm=10\nmind=0.1\n",
     "a.toml: [[requirements]] table 3 ('JA'): unknown key 'mind'"),
    ("a.toml", TOML.replace("m = 50\n", ""),
     "a.toml: [[requirements]] table 2: missing key 'm'"),
    ("a.toml", TOML.replace("0.0259", "'0.0259'"),
     "a.toml: [[requirements]] table 1 ('EN nDCG@3'): variance='0.0259' is not a number"),
    ("a.toml", "requirements = []\n", "a.toml: no requirements in the file"),
    ("a.csv", "", "a.csv: empty file"),
    ("a.csv", "label,variance,m\nx,0.1,2\n", "a.csv, line 1: missing column 'min_d'"),
    ("a.csv", "label,variance,m,mind\n", "a.csv, line 1: unknown column 'mind'"),
    ("a.csv", "m,m,variance,min_d\n", "a.csv, line 1: a column appears twice"),
    ("a.csv", "label,variance,m,min_d\n", "a.csv: no requirements in the file"),
    ("a.csv", "label,variance,m,min_d\nx,0.1,2,0.1\ny,0.1,ten,0.1\n",
     "a.csv, line 3 ('y'): m='ten' is not a number"),
    ("a.csv", "label,variance,m,min_d\nx,0.1,2,0.1\ny,0.1,,0.1\n",
     "a.csv, line 3 ('y'): m is blank"),
    ("a.csv", "label,variance,m,min_d\nx,0.1,2\n", "a.csv, line 2: 3 cells, the header has 4"),
    # a decimal comma, a semicolon CSV (a review of the wheel: "5 cells, the header has 4" and
    # "unknown column 'label;variance;m;min_d'" without a word on why)
    ("a.csv", "label,variance,m,min_d\nx,0,0451,10,0.1\n",
     "a.csv, line 2: 5 cells, the header has 4 (a decimal comma? 0,0451 is two cells: write "
     "0.0451)"),
    ("a.csv", "label;variance;m;min_d\nx;0,0451;10;0,1\n",
     "a.csv, line 1: unknown column 'label;variance;m;min_d' (its cells are separated by ';': a "
     "CSV file separates them by commas)"),
    ("a.csv", "variance,m,min_d\n-0.1,2,0.1\n",
     "a.csv, line 2: variance=-0.1 is out of range: allowed variance > 0"),
])
def test_bad_files(tmp_path, name, text, message):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(InputError) as info:
        read_requirements(path)
    got = str(info.value)
    assert got.startswith(f"{tmp_path}/{message}") and "\n" not in got, got


def test_toml_syntax_error_names_the_line(tmp_path):
    path = tmp_path / "a.toml"
    path.write_text(TOML + "[[requirements]]\nvariance = = 1\n")
    # The bad line is the 13th line of the file.
    with pytest.raises(InputError, match=r"a\.toml: not valid TOML: .*line 13"):
        read_requirements(path)


def test_missing_binary_and_folder(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.csv: no such file"):
        read_requirements(tmp_path / "nope.csv")
    with pytest.raises(IsADirectoryError, match="is a folder"):
        read_requirements(tmp_path)
    binary = tmp_path / "b.csv"
    binary.write_bytes(b"label,variance,m,min_d\n\xff\xfe,0.1,2,0.1\n")
    with pytest.raises(InputError, match=r"b\.csv: not a UTF-8 text file"):
        read_requirements(binary)
