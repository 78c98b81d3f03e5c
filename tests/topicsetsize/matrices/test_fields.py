"""Fields of run and qrels files: the vectorised split gives pandas' fields, and its numbers are
Python's float() of their text, bit for bit."""

from __future__ import annotations

import gzip
import math
import random

import numpy as np
import pandas as pd
import pytest

from topicsetsize.errors import InputError
from topicsetsize.matrices.fields import plain_blocks, read_fields

NAMES = ("qid", "Q0", "docno", "rank", "score", "tag")
#: Number-like texts: plain decimals (the vectorised parse) and everything float() reads or not.
NUMBERS = ["0", "7", "-0", "-0.0", ".5", "5.", "-.25", "007", "123456789012345", "1234567890123456",
           "0.1", "2.70763738219", "-13.764700889587402", "1e5", "+3", "1_0", "nan", "inf", "x",
           "--1", "1.2.3", "-", ".", "0.10000000000000000555", "99999999999999999999"]


def _token(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return rng.choice(NUMBERS)
    if rng.random() < 0.5:
        return repr(rng.gauss(0, 10) * 10 ** rng.randint(-6, 6))
    return rng.choice(["d", "D-", "a_b", "Q0", "x.y"]) + str(rng.randint(0, 30))


def _write(path, rng: random.Random, *, plain: bool) -> str:
    lines = []
    for _ in range(rng.randint(1, 80)):
        fields = [rng.choice(["1", "2", "10", "301"]) if rng.random() < 0.8 else _token(rng)]
        fields += [_token(rng) for _ in range(5)]
        blanks = [rng.choice([" ", " ", "  ", "\t", " \t "]) for _ in range(5)]
        line = "".join(f + b for f, b in zip(fields, blanks + [""]))
        lines.append(rng.choice(["", " ", "\t"]) + line + rng.choice(["", " "]))
    if not plain:
        lines.insert(rng.randint(0, len(lines)), rng.choice(["", "  "]))      # a blank line
    text = "\n".join(lines) + rng.choice(["\n", ""])
    if rng.random() < 0.5:                   # Windows line ends: plain as well (CLEF's ECNU)
        text = text.replace("\n", "\r\n")
    if not plain and rng.random() < 0.2:     # a \r that ends no line: pandas' rules
        text = text.replace("\r\n", "\r", 1) if "\r\n" in text else "\r" + text
    data = text.encode()
    path.write_bytes(gzip.compress(data) if path.suffix == ".gz" else data)
    return text


def _float_or_nan(text: str) -> float:
    if "_" in text:
        return math.nan
    try:
        return float(text)
    except ValueError:
        return math.nan


@pytest.mark.parametrize("seed", range(40))
def test_fields_are_pandas_fields_and_numbers_are_floats(tmp_path, seed):
    rng = random.Random(seed)
    plain = seed % 4 != 3
    path = tmp_path / ("run.gz" if seed % 3 == 0 else "run")
    _write(path, rng, plain=plain)
    fields = read_fields(path, NAMES)
    assert fields.vectorised == plain
    theirs = pd.read_csv(path, sep=r"\s+", header=None, dtype=str, quoting=3,
                         keep_default_na=False, engine="c")
    assert len(fields) == len(theirs)
    for j in range(len(NAMES)):
        text = theirs[j].tolist()
        assert fields.strings(j) == text
        assert [fields.cell(j, i) for i in range(len(text))] == text
        expected = np.array([_float_or_nan(t) for t in text])
        got = fields.numbers(j)
        assert np.array_equal(np.isnan(got), np.isnan(expected))
        assert np.array_equal(got[~np.isnan(got)].view(np.int64),
                              expected[~np.isnan(expected)].view(np.int64))    # bit for bit
        assert fields.same_as_previous(j).tolist() == [a == b for a, b in zip(text[1:], text)]
        codes, uniques = pd.factorize(np.asarray(text, object))
        assert fields.factorize(j)[0] == list(uniques)
        assert fields.factorize(j)[1].tolist() == codes.tolist()


def test_plain_decimals_are_parsed_at_once_exactly(tmp_path):
    rng = np.random.default_rng(5)
    texts = [f"{v:.{d}f}" for v, d in zip(rng.normal(size=3000) * 10.0 ** rng.integers(-3, 9, 3000),
                                         rng.integers(0, 12, 3000))]
    texts = [t for t in texts if sum(c.isdigit() for c in t) <= 15]
    path = tmp_path / "run"
    path.write_text("".join(f"1 Q0 d{i} {i + 1} {t} tag\n" for i, t in enumerate(texts)))
    fields = read_fields(path, NAMES)
    assert fields.vectorised
    assert fields.numbers(4).tolist() == [float(t) for t in texts]
    assert fields.numbers(3).tolist() == list(range(1, len(texts) + 1))


def test_line_numbers_count_blank_lines(tmp_path):
    path = tmp_path / "run"
    path.write_text("1 Q0 a 1 2 t\n\n1 Q0 b 2 1 t\n")
    fields = read_fields(path, NAMES)
    assert not fields.vectorised and fields.line.tolist() == [1, 3]
    path.write_text("1 Q0 a 1 2 t\n1 Q0 b 2 1 t")          # no newline at the end
    fields = read_fields(path, NAMES)
    assert fields.vectorised and fields.line.tolist() == [1, 2]
    assert fields.strings(5) == ["t", "t"]


@pytest.mark.parametrize("seed", range(40))
@pytest.mark.parametrize("size", [1, 7, 64, 1 << 20])
def test_blocks_hold_the_whole_files_fields(tmp_path, seed, size):
    """A file read a block of lines at a time (blocks forced small: many blocks, lines longer
    than a block) gives read_fields' fields and line numbers, or None where it is not plain."""
    rng = random.Random(seed)
    plain = seed % 4 != 3
    path = tmp_path / ("run.gz" if seed % 3 == 0 else "run")
    _write(path, rng, plain=plain)
    whole = read_fields(path, NAMES)
    blocks = list(plain_blocks(path, len(NAMES), size))
    if not whole.vectorised:
        assert blocks[-1] is None and all(b is not None for b in blocks[:-1])
        return
    assert None not in blocks and (size > 1000 or len(blocks) > 1 or len(whole) == 1)
    assert np.concatenate([b.line for b in blocks]).tolist() == whole.line.tolist()
    for j in range(len(NAMES)):
        assert sum((b.strings(j) for b in blocks), []) == whole.strings(j)
        got = np.concatenate([b.numbers(j) for b in blocks])
        assert np.array_equal(got.view(np.int64), whole.numbers(j).view(np.int64))


def test_blocks_of_an_empty_or_missing_file_say_read_it_whole(tmp_path):
    (tmp_path / "empty").write_bytes(b"")
    (tmp_path / "blank").write_bytes(b"\n \n")
    (tmp_path / "bad.gz").write_bytes(b"1 Q0 a 1 2 t\n")
    for name in ("empty", "blank", "bad.gz", "missing"):
        assert list(plain_blocks(tmp_path / name, len(NAMES), 4)) == [None]
    (tmp_path / "one").write_bytes(b"1 Q0 a 1 2 t")                # no newline at the end
    (block,) = plain_blocks(tmp_path / "one", len(NAMES), 4)
    assert block.strings(5) == ["t"] and block.line.tolist() == [1]


@pytest.mark.parametrize("fields", [("qid", "Q0", "docno", "rank", "score", "tag"),
                                    ("qid", "iter", "docno", "rel")])
@pytest.mark.parametrize("gz", [False, True])
def test_a_nul_character_is_refused_naming_the_file_line_and_field(tmp_path, fields, gz):
    """trec_eval reads C strings: an id holding a NUL would be cut there, so the runs' and
    qrels' reader refuses it (pandas kept it: ir_measures evaluated a run on the longer id,
    pool-depth refused it without naming the file)."""
    good = "1 Q0 d1 1 2.0 t\n" if len(fields) == 6 else "1 0 d1 1\n"
    bad = good.replace("d1", "d\x002").replace(" 1 2.0", " 2 1.0")
    path = tmp_path / ("f.gz" if gz else "f")
    data = ("\n" + good + bad).encode()
    path.write_bytes(gzip.compress(data) if gz else data)
    with pytest.raises(InputError) as exc:
        read_fields(path, fields)
    assert str(exc.value) == (f"{path}, line 3: the docno field 'd\\x002' holds a NUL character "
                              "(trec_eval would cut it there)")


@pytest.mark.parametrize("fields", [("qid", "Q0", "docno", "rank", "score", "tag"),
                                    ("qid", "iter", "docno", "rel")])
@pytest.mark.parametrize("gz", [False, True])
def test_a_binary_file_is_named_so(tmp_path, fields, gz):
    """A workbook or a program given as a run or qrels file is said to be binary (not a
    tokenizer's complaint about its line 32, nor a NUL in its first 'field')."""
    import io
    import zipfile

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as book:   # an .xlsx is a zip
        book.writestr("xl/workbook.xml", bytes(random.Random(0).randrange(256)
                                               for _ in range(20000)))
    path = tmp_path / ("scores.xlsx.gz" if gz else "scores.xlsx")
    path.write_bytes(gzip.compress(buffer.getvalue()) if gz else buffer.getvalue())
    with pytest.raises(InputError) as exc:
        read_fields(path, fields)
    what = "TREC run" if len(fields) == 6 else "TREC qrels"
    assert str(exc.value) == (f"{path}: a binary file, not a {what} file (expected "
                              "whitespace-separated text, or such text gzipped, named .gz)")


def test_a_nul_in_a_file_pandas_reads_is_refused_where_pandas_keeps_it(tmp_path):
    """A .bz2 file is read by pandas alone: where pandas keeps a NUL (pandas 3), the field is
    refused as in a plain file; where it cuts the field there (pandas 2.0, as trec_eval does),
    the cut id is what is read."""
    import bz2

    path = tmp_path / "run.bz2"
    path.write_bytes(bz2.compress(b"1 Q0 d1 1 2.0 t\n1 Q0 d\x002 2 1.0 t\n"))
    kept = "\0" in pd.read_csv(path, sep=r"\s+", header=None, dtype=str).iloc[1, 2]
    names = ("qid", "Q0", "docno", "rank", "score", "tag")
    if kept:
        with pytest.raises(InputError) as exc:
            read_fields(path, names)
        assert str(exc.value) == (f"{path}, line 2: the docno field 'd\\x002' holds a NUL "
                                  "character (trec_eval would cut it there)")
    else:
        assert read_fields(path, names).strings(2) == ["d1", "d"]


@pytest.mark.parametrize("name", ["r.gz", "r.GZ", "r.tar.gz", "r.TAR.xz", "r.tgz", "r.bz2",
                                  "r.zip", "r.xz", "r.zst", "r.tar", "r", "r.txt", "r.gz.txt",
                                  ".gz"])
def test_compression_is_inferred_from_the_name_as_pandas_infers_it(name):
    # fields' own reading of the name (no pandas import, issue 28.3) against pandas': whether a
    # file is read as plain text, as gzip, or handed to pandas' reader
    from pandas.io.common import infer_compression

    from topicsetsize.matrices import fields

    theirs = infer_compression(name, "infer")
    ours = fields._compression(fields.Path(name))
    assert (ours if ours in (None, "gzip") else "other") == \
        (theirs if theirs in (None, "gzip") else "other")


def test_texts_are_parsed_as_float_reads_them():
    from topicsetsize.matrices.formats.common import parse_texts

    rng = random.Random(7)
    texts = [repr(rng.random() * 10.0 ** rng.randint(-30, 30)) for _ in range(2000)]
    texts += [f"{rng.random():.25f}", "1e-3", " 2 ", "-0", "inf"]
    got = parse_texts(texts)
    assert got.view(np.int64).tolist() == np.array([float(t) for t in texts]).view(
        np.int64).tolist()                                           # bit for bit
    mixed = parse_texts(["1_0", "x", None, "0.5", 3])           # float() would read "1_0" as 10
    assert np.isnan(mixed[:3]).all() and mixed[3:].tolist() == [0.5, 3.0]
