"""The packages of the distribution, found rather than listed (a listed one can be missed).

Everything installs under the project's own name: ``topicsetsize/`` as :mod:`topicsetsize`
(its data folders too, as namespace packages, so that setuptools installs them without a
"Package would be ignored" warning), the folders ``generator/`` and ``xladdin/`` beside it as
:mod:`topicsetsize.generator` and :mod:`topicsetsize.xladdin`, and the bundled workbook specs
in ``workbook_templates/`` as ``topicsetsize/generator/templates/``. A generic top-level name
such as ``generator`` would collide with a user's ``generator.py`` or another distribution.
The one top-level name kept is ``xladdin`` (``compat/xladdin/``), a two-module shim for the
import path that Excel set-ups already name (``UDF Modules = xladdin.udfs``). Everything else is
in pyproject.toml.
"""

from setuptools import find_namespace_packages, find_packages, setup

NOT_PACKAGES = ["*.__pycache__", "*.__pycache__.*"]
BESIDE = ("generator", "xladdin")           # folders beside topicsetsize/, installed inside it

packages = find_namespace_packages(include=["topicsetsize", "topicsetsize.*"],
                                   exclude=NOT_PACKAGES)
package_dir = {"topicsetsize.generator.templates": "workbook_templates",
               "xladdin": "compat/xladdin"}
for name in BESIDE:
    packages += [f"topicsetsize.{p}" for p in find_packages(include=[name, f"{name}.*"])]
    package_dir[f"topicsetsize.{name}"] = name

setup(packages=[*packages, "topicsetsize.generator.templates", "xladdin"], package_dir=package_dir)
