"""The build hook's docstring writer (``mypyc_docstrings.py``, beside ``hatch_build.py``).

mypyc keeps only signatures; the writer puts each docstring of the sources into the
C that mypyc generated. These tests feed it C in mypyc's own format (copied from
``mypycify``'s output for the sources below); ``tests/test_compiled.py`` checks the
real compiled build.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

mypyc_docstrings = pytest.importorskip(
    "mypyc_docstrings", reason="mypyc_docstrings.py is not beside the tests"
)

SOURCE = '''\
"""Module a."""
from typing import overload


def f(x: int, *, y: int = 2) -> int:
    """Doc of f: "quoted", a \\\\ backslash, ??= and ♠.

    Example:
        >>> f(1)
        3
    """
    return x + y


class C:
    """Class C."""

    def m(self, z: int) -> int:
        """Doc of C.m."""
        return z

    @property
    def p(self) -> int:
        """Doc of p."""
        return 1
'''

C = r"""
static PyGetSetDef a___C_getseters[] = {
    {"p",
     (getter)a___C_get_p,
    NULL, NULL, NULL},
    {NULL}  /* Sentinel */
};

static PyMethodDef a___C_methods[] = {
    {"__internal_mypyc_setup", (PyCFunction)CPyDef_a_____mypyc__C_setup, METH_O, NULL},
    {"m",
     (PyCFunction)CPyPy_a___C___m,
     METH_FASTCALL | METH_KEYWORDS, PyDoc_STR("m($self, z)\n--\n\n")},
    {NULL}  /* Sentinel */
};

static PyTypeObject CPyType_a___C_template_ = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "C",
    .tp_getset = a___C_getseters,
    .tp_methods = a___C_methods,
    .tp_doc = PyDoc_STR("C()\n--\n\n"),
};

static PyMethodDef amodule_methods[] = {
    {"f", (PyCFunction)CPyPy_a___f, METH_FASTCALL | METH_KEYWORDS, PyDoc_STR("f(x, *, y=2)\n--\n\n") /* docstring */},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef amodule = {
    PyModuleDef_HEAD_INIT,
    "pkg.a",
    NULL, /* docstring */
    0,       /* size of per-interpreter state of the module */
    amodule_methods,
    NULL,
};
"""


def decoded(literals: str) -> str:
    """C string literals side by side (``"a" "b"``), decoded and joined as C does."""
    pieces = re.findall(r'"((?:[^"\\]|\\.)*)"', literals)
    return b"".join(ast.literal_eval(f'b"{piece}"') for piece in pieces).decode()


def c_strings(text: str) -> list[str]:
    """The contents of every ``PyDoc_STR`` in *text*, decoded as C decodes them."""
    arguments = re.findall(r'PyDoc_STR\(((?:\s*"(?:[^"\\]|\\.)*")+)\)', text)
    return [decoded(argument) for argument in arguments]


def written(tmp_path: Path, sources: dict[str, str]) -> tuple[str, int]:
    """``keep_docstrings`` run on `C` with *sources*: the new C and the count."""
    for name, text in sources.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    build = tmp_path / "build"
    build.mkdir()
    (build / "__native_grp.c").write_text(C, encoding="utf-8")
    count = mypyc_docstrings.keep_docstrings(build, list(sources))
    return (build / "__native_grp.c").read_text(encoding="utf-8"), count


def test_every_kind_of_docstring_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Functions, methods, classes, properties and the module get their docstrings."""
    monkeypatch.chdir(tmp_path)
    text, count = written(tmp_path, {"pkg/a.py": SOURCE})
    assert count == 5
    tree = ast.parse(SOURCE)
    function, cls = (node for node in tree.body if hasattr(node, "name"))
    assert isinstance(function, ast.FunctionDef)
    assert isinstance(cls, ast.ClassDef)
    assert c_strings(text) == [
        "Doc of p.",
        "m($self, z)\n--\n\nDoc of C.m.",
        "C()\n--\n\nClass C.",
        f"f(x, *, y=2)\n--\n\n{ast.get_docstring(function)}",
        "Module a.",
    ]


def test_a_symbol_two_sources_could_own_keeps_its_signature_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``a.f`` of ``pkg/a.py`` and of ``other/a.py`` share a symbol: neither is written."""
    monkeypatch.chdir(tmp_path)
    other = '"""Another a."""\n\ndef f() -> None:\n    """Another f."""\n'
    text, _ = written(tmp_path, {"pkg/a.py": SOURCE, "other/a.py": other})
    assert "f(x, *, y=2)\n--\n\n" in c_strings(text)
    assert "Doc of C.m." in text  # the other symbols are still written


def test_overload_stubs_do_not_hide_the_implementation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An ``@overload`` stub (no docstring) does not replace its implementation's."""
    monkeypatch.chdir(tmp_path)
    stubbed = SOURCE.replace(
        "def f(", "@overload\ndef f(x: int) -> int: ...\n\n\ndef f(", 1
    )
    text, count = written(tmp_path, {"pkg/a.py": stubbed})
    assert count == 5
    assert any(
        doc.startswith("f(x, *, y=2)\n--\n\nDoc of f") for doc in c_strings(text)
    )


@given(st.text())
def test_any_text_survives_as_c_strings(text: str) -> None:
    """Quotes, backslashes, trigraphs, control characters and Unicode round-trip."""
    literals = mypyc_docstrings._c_string(text)
    assert all(32 <= ord(char) < 127 for char in literals)
    assert decoded(literals) == text


def test_a_long_docstring_is_cut_into_pieces_between_escapes() -> None:
    """No literal is longer than MSVC takes, and no escape is cut in two."""
    text = "♠ a line of text\n" * 400
    literals = mypyc_docstrings._c_string(text)
    pieces = re.findall(r'"((?:[^"\\]|\\.)*)"', literals)
    assert len(pieces) > 1
    assert all(len(piece) <= mypyc_docstrings._PIECE for piece in pieces)
    assert decoded(literals) == text


NAMED_TUPLE = '''\
from typing import NamedTuple


class Words(NamedTuple):
    """One phrase in each language."""

    en: str
'''

NAMED_TUPLE_C = r"""
    cpy_r_r58 = CPyStatics[13]; /* 'mypyc filler docstring' */
    cpy_r_r59 = CPyStatics[14]; /* '__doc__' */
    cpy_r_r60 = CPyDict_SetItem(cpy_r_r43, cpy_r_r59, cpy_r_r58);
    cpy_r_r61 = cpy_r_r60 >= 0;
    if (unlikely(!cpy_r_r61)) {
        CPy_AddTraceback("pkg/c.py", "<module>", 4, CPyStatic_globals);
        goto CPyL64;
    }
"""


def test_a_class_left_to_python_gets_its_docstring(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ``NamedTuple``'s filler docstring is replaced by the class's own."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "c.py").write_text(NAMED_TUPLE, encoding="utf-8")
    (tmp_path / "build").mkdir()
    generated = tmp_path / "build" / "__native_grp.c"
    generated.write_text(NAMED_TUPLE_C, encoding="utf-8")
    assert mypyc_docstrings.keep_docstrings(tmp_path / "build", ["pkg/c.py"]) == 1
    text = generated.read_text(encoding="utf-8")
    assert "mypyc filler docstring" not in text
    assert 'PyUnicode_FromString("One phrase in each language.");' in text
    assert "cpy_r_r58 = CPyStatics[13];" in text  # the filler, should that fail
