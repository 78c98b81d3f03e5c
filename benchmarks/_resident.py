"""Peak resident memory of a benchmark's child process above its imports, and such children.

A benchmark that states memory runs each measurement in a fresh child of a small parent
(:func:`run_child`). The child does its imports, then calls :func:`above_imports`, does the work,
and prints the JSON of its result with :meth:`AboveImports.report` merged in, last. On Linux
the peak is ``VmHWM`` of ``/proc/self/status`` after resetting it to the current resident size
through ``/proc/self/clear_refs`` once the imports are done, minus ``VmRSS`` at that point;
where ``clear_refs`` is not available, ``ru_maxrss`` after the imports and at the end (the
report says which). On Linux the report also splits what is still resident at its end, above
the imports, into pages of mapped files (``RssFile``: chiefly shared libraries' machine code
first run after the imports) and anonymous memory (``RssAnon``: the heap, live data and the
free blocks the allocator keeps). Linux/macOS only (``resource``).
"""

from __future__ import annotations

import json
import re
import resource
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _status(key: str) -> int:
    """A ``/proc/self/status`` figure in bytes."""
    text = Path("/proc/self/status").read_text()
    return int(re.search(key + r":\s+(\d+) kB", text).group(1)) * 1024


def _maxrss() -> int:
    k = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return k if sys.platform == "darwin" else k * 1024


#: The kinds of resident memory :meth:`AboveImports.report` splits its end into.
KINDS = {"file": "RssFile", "anon": "RssAnon"}


def _kinds() -> dict[str, int]:
    """``/proc/self/status``'s resident memory by kind (bytes); empty where there is none."""
    try:
        return {key: _status(name) for key, name in KINDS.items()}
    except (OSError, AttributeError):
        return {}


class AboveImports:
    """The resident peak from now on (see the module docstring); make it after the imports."""

    def __init__(self) -> None:
        self._kinds = _kinds()
        try:
            with open("/proc/self/clear_refs", "w") as out:   # VmHWM := the current VmRSS
                out.write("5")
            self.method, self.base = "VmHWM after clear_refs", _status("VmRSS")
            self._peak = lambda: _status("VmHWM")
        except OSError:
            self.method, self.base, self._peak = "ru_maxrss (no clear_refs)", _maxrss(), _maxrss

    def report(self) -> dict:
        """``peak`` above the imports, ``whole`` peak, ``imports`` (bytes), and ``method``;
        on Linux also ``file`` and ``anon``, each kind's resident size now above the imports."""
        peak, now = self._peak(), _kinds()
        return {"peak": peak - self.base, "whole": peak, "imports": self.base,
                "method": self.method,
                **{key: now[key] - self._kinds[key] for key in now if key in self._kinds}}


def above_imports() -> AboveImports:
    """Start measuring the resident peak above what is resident now (after the imports)."""
    return AboveImports()


#: A meter: runs its arguments as one command (output discarded), prints the command's
#: CPU (user + system) and peak resident size in bytes as JSON.
METER = r"""
import json, resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
k = usage.ru_maxrss if sys.platform == "darwin" else usage.ru_maxrss * 1024
print(json.dumps({"cpu": usage.ru_utime + usage.ru_stime, "peak": k}))
"""


def whole_command(argv: list[str]) -> dict:
    """A whole command, imports and start-up included, measured by a fresh meter process
    (``getrusage(RUSAGE_CHILDREN)`` of its one child): ``cpu`` in seconds, ``peak`` resident
    size in bytes."""
    out = subprocess.run([sys.executable, "-c", METER, *argv], check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def run_child(code: str) -> dict:
    """Run ``code`` in a fresh Python (this folder on its path); the JSON of its last line."""
    out = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {str(HERE)!r})\n"
                          + code], check=True, capture_output=True, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])
