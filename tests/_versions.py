"""Version facts the tests depend on."""

from __future__ import annotations

import scipy


def scipy_at_least(major: int, minor: int) -> bool:
    return tuple(int(x) for x in scipy.__version__.split(".")[:2]) >= (major, minor)


#: Relative agreement to expect from statsmodels' power functions. statsmodels calls
#: scipy.special.ncfdtr/nctdtr, which before scipy 1.15 were cdflib's and are off by about 3e-6
#: (.7933149 against .7933118 from Boost, which scipy.stats.ncf/nct and so the engine use in every
#: version); from scipy 1.15 on they are Boost's too.
STATSMODELS_REL = 1e-9 if scipy_at_least(1, 15) else 1e-5
