"""Sphinx configuration for the tienlen documentation.

Built by ``.ci/run`` with ``sphinx-build -n -W --keep-going`` for both the ``html``
and the ``doctest`` builders (STYLE R61-R62). CI has no network beyond the package
registries, so intersphinx is not used: references to the standard library and to
attrs that cannot resolve are listed in ``nitpick_ignore_regex`` instead (STYLE §7.14).
"""

import enum
import re
from importlib.metadata import PackageNotFoundError, version

import attrs

# -- Project information ---------------------------------------------------------

project = "tienlen"
author = "the tienlen developers"
copyright = "2026, the tienlen developers"

try:
    release = version("tienlen")
except PackageNotFoundError:  # not installed yet (e.g. a fresh checkout)
    release = "0.0.0"
version = ".".join(release.split(".")[:2])

# -- General configuration -------------------------------------------------------

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "sphinx.ext.doctest",
    "myst_parser",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
language = "en"
exclude_patterns = ["_build"]

# `Card` in a docstring links to the object (attrs, STYLE R61).
default_role = "any"

# Fail on every reference that does not resolve (run with -n -W).
nitpicky = True

_BUILTINS = (
    "None|NoneType|object|type|bool|int|float|complex|str|bytes|tuple|list|dict"
    "|set|frozenset|slice|range|Ellipsis|NotImplemented"
    "|BaseException|Exception|ValueError|TypeError|KeyError|IndexError"
    "|LookupError|RuntimeError|AttributeError|NotImplementedError|StopIteration"
)
_STDLIB_MODULES = (
    "collections|collections\\.abc|typing|typing_extensions|types|enum|random"
    "|functools|itertools|re|io|os|pathlib|abc|dataclasses|builtins|importlib"
)
_TYPING_NAMES = (
    "Any|Self|Literal|Final|ClassVar|TypeAlias|TypeVar|Protocol|NewType"
    "|Callable|Iterable|Iterator|Generator|Collection|Sequence|Mapping"
    "|Set|AbstractSet|MutableMapping|Hashable|Sized|Container"
)
nitpick_ignore_regex = [
    # Built-in types and exceptions, bare or spelt with `builtins.`.
    (r"py:.*", rf"(builtins\.)?({_BUILTINS})"),
    # Standard-library modules and everything in them (no intersphinx offline).
    (r"py:.*", rf"({_STDLIB_MODULES})(\..*)?"),
    # Names that autodoc prints unqualified from typing / collections.abc.
    (r"py:.*", rf"({_TYPING_NAMES})"),
    (r"py:.*", r"(Random|Enum|StrEnum|IntEnum|Flag|IntFlag)"),
    # attrs.
    (r"py:.*", r"(attrs?|attr\._make|attrs\._make)(\..*)?"),
    # The rl extra's numpy and PettingZoo types (tienlen.rl in the API reference).
    (r"py:.*", r"(numpy|pettingzoo)(\..*)?"),
    (r"py:class", r"AECEnv"),
    # Private type aliases in the signatures of private constructor arguments.
    (r"py:class", r"(tienlen\.[\w.]*\.)?_[A-Za-z]\w*"),
    # Classes of private modules named in documented attributes' types.
    (r"py:class", r"tienlen\.(\w+\.)*_[A-Za-z]\w*\.\w+"),
]

# -- autodoc / napoleon ----------------------------------------------------------

autodoc_member_order = "bysource"
autodoc_preserve_defaults = True
autodoc_typehints = "description"

napoleon_google_docstring = True
napoleon_numpy_docstring = False

# -- doctest ---------------------------------------------------------------------

# No doctest_global_setup: every snippet of the pages imports what it uses, so it runs
# as shown. The examples in docstrings run where they are written, in their module's
# namespace, under ``pytest --doctest-modules``; Sphinx tests the pages' snippets only.
doctest_test_doctest_blocks = ""

# -- MyST ------------------------------------------------------------------------

myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# -- HTML ------------------------------------------------------------------------

html_theme = "furo"
html_title = f"tienlen {release}"


# -- Clean defaults for attrs classes ----------------------------------------------
# attrs generates __init__ without source, so preserved defaults would read
# ``attr_dict['x'].default``; show the field's default value instead.

_ATTRS_DEFAULT = re.compile(r"attr_dict\['(\w+)'\]\.default")


def _default_text(value: object) -> str:
    if isinstance(value, enum.Enum):
        return f"{type(value).__name__}.{value.name}"
    text = repr(value)
    return text if len(text) <= 40 and "<" not in text else "…"


def _clean_attrs_defaults(app, what, name, obj, options, signature, annotation):  # noqa: ARG001
    if signature is None or "attr_dict[" not in signature:
        return None
    fields = attrs.fields_dict(obj) if isinstance(obj, type) and attrs.has(obj) else {}

    def default(match: re.Match[str]) -> str:
        field = fields.get(match[1])
        value = getattr(field, "default", None)
        if isinstance(value, attrs.Factory):
            value = None if value.takes_self else value.factory()
        return _default_text(value)

    return _ATTRS_DEFAULT.sub(default, signature), annotation


def setup(app):
    """Connect the signature clean-up to autodoc."""
    app.connect("autodoc-process-signature", _clean_attrs_defaults)
