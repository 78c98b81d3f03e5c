"""The packages of the distribution, found rather than listed (a listed one can be missed).

Every folder with an ``__init__.py`` under ``topicsetsize/``, ``xladdin/`` and ``generator/`` is
a package; the bundled workbook specs in ``workbook_templates/`` install as
``generator/templates/`` (``generator.bundled`` looks in both places), a mapping that
pyproject.toml cannot add to the packages it finds. Everything else is in pyproject.toml.
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["topicsetsize", "topicsetsize.*", "xladdin", "xladdin.*",
                                      "generator", "generator.*"]),
              "generator.templates"],
    package_dir={"generator.templates": "workbook_templates"},
)
