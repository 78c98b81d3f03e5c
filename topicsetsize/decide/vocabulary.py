"""Distinct string ids (the documents of a collection's runs and qrels) numbered once, held
compactly while they are being numbered: :class:`Vocabulary`, what
:class:`~topicsetsize.decide.pools.RankedRuns` codes its documents with.
"""

from __future__ import annotations

from itertools import repeat

import numpy as np
import pandas as pd

from ..errors import InputError

__all__ = ["Vocabulary", "GATHER"]

#: How many ids :meth:`Vocabulary.strings` (and the check of a look-up) gathers at a time.
GATHER = 8192


class Vocabulary:
    """Distinct ids, each coded by its position (ids numbered in order of first appearance).

    While ids are added (:meth:`codes`) they are not held as Python strings (some 60 bytes an
    id, plus a map from id to code, scattered in memory among the strings of the runs being
    read) but as one UTF-8 buffer, each id ended by a NUL, with the offset of each, and found by
    their ``hasher`` value (Python's ``hash``) in a sorted ``int64`` array through a directory
    of its buckets (:func:`_directory`): an id's UTF-8 bytes and some 30 more. A match of the
    hash is confirmed on the bytes (all the ids of one call compared at once), so two ids of one
    hash are told apart (the later one is then kept in a small map). The ids are made Python
    strings by :meth:`ids`, all at once (so together in memory); :meth:`done` keeps only those
    and drops the buffer and the lookup.

    Parameters
    ----------
    hasher : callable
        str -> int, within the int64 range; ``hash`` (a weaker one tests the clashes).

    Examples
    --------
    >>> vocabulary = Vocabulary()
    >>> vocabulary.codes(["b", "a", "b"]).tolist(), vocabulary.codes(["c", "a"]).tolist()
    ([0, 1, 0], [2, 1])
    >>> vocabulary.ids().tolist(), vocabulary.strings(np.array([2, 0]))
    (['b', 'a', 'c'], ['c', 'b'])
    """

    def __init__(self, hasher=hash) -> None:
        self._hasher = hasher
        self._bytes = np.zeros(0, np.uint8)      # the ids, each ended by NUL (capacity grows)
        self._offsets = np.zeros(1, np.int64)    # id k is _bytes[_offsets[k]:_offsets[k+1]-1]
        self._count = 0
        self._keys = np.zeros(0, np.int64)       # sorted hashes, and the code of each
        self._key_codes = np.zeros(0, np.int32)
        self._directory = _directory(self._keys)
        self._recent = (np.zeros(0, np.int64), np.zeros(0, np.int32))   # added since, likewise
        self._clash: dict[str, int] = {}         # ids whose hash another id has already
        self._objects: np.ndarray | None = None  # the ids as Python strings, made once
        self._done = False

    def __len__(self) -> int:
        return self._count

    def codes(self, ids) -> np.ndarray:
        """The code (``int32``) of each of ``ids`` (a list or array of str, repeats allowed),
        the new ones numbered from ``len(self)`` on in order of first appearance.

        Raises
        ------
        InputError
            A new id holds a NUL character (trec_eval would cut the id there).
        """
        if self._done:
            raise RuntimeError("Vocabulary.codes after done()")
        ids = ids if isinstance(ids, list) else np.asarray(ids, object).tolist()
        hashes = np.fromiter(map(self._hasher, ids), np.int64, len(ids))
        out = self._find(hashes)
        hit = np.flatnonzero(out >= 0)
        if len(hit):
            held = ids if len(hit) == len(ids) else np.asarray(ids, object)[hit].tolist()
            if self._gather(out[hit]) != _joined(held):     # a clash: confirm one by one
                wrong = [k for k, (a, b) in enumerate(zip(self.strings(out[hit]), held))
                         if a != b]
                out[hit[wrong]] = -1
        missed = np.flatnonzero(out < 0)
        if len(missed) and self._clash:
            out[missed] = np.fromiter(map(self._clash.get, np.asarray(ids, object)[missed]
                                          .tolist(), repeat(-1)), np.int32, len(missed))
            missed = missed[out[missed] < 0]
        if len(missed):
            fresh, new = pd.factorize(np.asarray(ids, object)[missed])
            out[missed] = self._append(np.asarray(new, object).tolist())[fresh]
        return out

    def _find(self, hashes: np.ndarray) -> np.ndarray:
        """The code of the id held with each hash, -1 where none is: in the sorted hashes by
        their directory (:func:`_directory`), then in those added since by a binary search."""
        out = np.full(len(hashes), -1, np.int32)
        keys, codes = self._keys, self._key_codes
        if len(keys):
            bits, directory = self._directory
            bucket = _bucket(hashes, bits)
            pos, end = directory[bucket], directory[bucket + 1]
            at = np.minimum(pos, len(keys) - 1)
            found = keys[at] == hashes
            out[found] = codes[at[found]]
            todo = np.flatnonzero(~found & (pos + 1 < end))
            while len(todo):                # the few buckets of more than one hash
                at = pos[todo] = pos[todo] + 1
                found = keys[at] == hashes[todo]
                out[todo[found]] = codes[at[found]]
                todo = todo[~found & (at + 1 < end[todo])]
        keys, codes = self._recent
        if len(keys):
            missed = np.flatnonzero(out < 0)
            at = np.minimum(np.searchsorted(keys, hashes[missed]), len(keys) - 1)
            found = keys[at] == hashes[missed]
            out[missed[found]] = codes[at[found]]
        return out

    def _append(self, new: list) -> np.ndarray:
        """Hold ``new`` (distinct ids none of which is held); their codes."""
        data = np.frombuffer(_joined(new), np.uint8)
        ends = np.flatnonzero(data == 0) + 1            # where each new id ends, NUL included
        if len(ends) != len(new):
            bad = next(i for i in new if "\0" in i)
            raise InputError(f"document id {bad!r} holds a NUL character (trec_eval would "
                             "cut the id there)")
        start, codes = self._count, np.arange(self._count, self._count + len(new), dtype=np.int32)
        used = int(self._offsets[start])
        self._bytes = _room(self._bytes, used + len(data))
        self._bytes[used:used + len(data)] = data
        self._offsets = _room(self._offsets, start + 1 + len(new))
        self._offsets[start + 1:start + 1 + len(new)] = used + ends
        self._count += len(new)
        hashes = np.fromiter(map(self._hasher, new), np.int64, len(new))
        # A hash already held, or twice among the new ids: that id is found by the map instead.
        clash = (self._find(hashes) >= 0) | pd.Series(hashes).duplicated().to_numpy()
        for k in np.flatnonzero(clash).tolist():
            self._clash[new[k]] = int(codes[k])
        keys, key_codes = (np.concatenate([a, b]) for a, b in zip(self._recent,
                                                                  (hashes[~clash], codes[~clash])))
        order = np.argsort(keys, kind="stable")
        self._recent = (keys[order], key_codes[order])
        if len(self._recent[0]) > len(self._keys) // 4:     # merged at a constant share
            keys, key_codes = (np.concatenate([a, b]) for a, b in zip(
                (self._keys, self._key_codes), self._recent))
            order = np.argsort(keys, kind="stable")
            self._keys, self._key_codes = keys[order], key_codes[order]
            self._directory = _directory(self._keys)
            self._recent = (np.zeros(0, np.int64), np.zeros(0, np.int32))
        return codes

    def _gather(self, codes: np.ndarray) -> bytes:
        """The ids of ``codes`` as held: their UTF-8 bytes, each ended by NUL, in that order
        (gathered :data:`GATHER` ids at a time, so that the index of every byte is made for a
        few of them only)."""
        out = []
        for k in range(0, len(codes), GATHER):
            start = self._offsets[codes[k:k + GATHER]]
            length = self._offsets[codes[k:k + GATHER] + 1] - start
            at = np.repeat(start - (np.cumsum(length) - length), length)
            at += np.arange(len(at))
            out.append(self._bytes[at].tobytes())
        return b"".join(out)

    def strings(self, codes: np.ndarray) -> list:
        """The ids of ``codes`` as a list of str."""
        if self._objects is not None and len(self._objects) == self._count:
            return self._objects[codes].tolist()
        return _split(self._gather(np.asarray(codes, np.int64)))

    def ids(self) -> np.ndarray:
        """Every id, by code, as an object array of str (made again only where ids were
        added)."""
        if self._objects is None or len(self._objects) != self._count:
            self._objects = np.array(_split(self._bytes[:self._offsets[self._count]]), object)
        return self._objects

    def done(self) -> None:
        """Every id is in: keep them as Python strings (:meth:`ids`), drop the rest (the
        lookup first, the buffer once the strings are made)."""
        self._keys, self._key_codes = np.zeros(0, np.int64), np.zeros(0, np.int32)
        self._directory = _directory(self._keys)
        self._recent, self._clash, self._done = (self._keys, self._key_codes), {}, True
        self.ids()
        self._bytes, self._offsets = np.zeros(0, np.uint8), np.zeros(1, np.int64)


def _joined(ids: list) -> bytes:
    """``ids`` as UTF-8, each ended by NUL (lone surrogates kept, as Python holds them)."""
    return ("\0".join(ids) + "\0").encode("utf-8", "surrogatepass") if ids else b""


def _bucket(hashes: np.ndarray, bits: int) -> np.ndarray:
    """The top ``bits`` bits of each hash taken as unsigned after adding 2**63: the bucket,
    in the order of the hashes."""
    return (hashes.view(np.uint64) ^ np.uint64(1 << 63)) >> np.uint64(64 - bits)


def _directory(keys: np.ndarray) -> tuple:
    """``(bits, directory)`` of sorted distinct hashes: about as many buckets as hashes
    (:func:`_bucket`), and where each bucket's hashes start in ``keys`` (one more entry: the
    end), so that a hash is found in one look mostly, a few at most (hashes being random).

    >>> bits, directory = _directory(np.array([-2**62, 0, 1, 2**62]))
    >>> bits, directory.tolist()
    (3, [0, 0, 0, 1, 1, 3, 3, 4, 4])
    """
    bits = max(len(keys).bit_length(), 1)
    starts = np.searchsorted(_bucket(keys, bits), np.arange((1 << bits) + 1, dtype=np.uint64))
    return bits, starts.astype(np.int32)


def _split(data) -> list:
    """The ids of :func:`_joined` ``data`` (bytes, or an array of them), as a list of str."""
    out = str(data, "utf-8", "surrogatepass").split("\0")
    out.pop()
    return out


def _room(array: np.ndarray, size: int) -> np.ndarray:
    """``array``, or a copy of it twice as long (or ``size``), once it is shorter than
    ``size``."""
    if len(array) >= size:
        return array
    out = np.zeros(max(size, 2 * len(array)), array.dtype)
    out[:len(array)] = array
    return out
