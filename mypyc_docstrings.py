"""Keep the docstrings of modules compiled by mypyc (the build hook's helper).

mypyc gives a compiled function, method, class or property its signature only, and a
compiled module no docstring, so ``help()`` and ``__doc__`` in the compiled build
would show none of the engine's documentation. `keep_docstrings` writes each
docstring of the sources into the C that ``mypycify`` generated, before it is
compiled; ``hatch_build.py`` copies this file beside its setup script and calls it.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

__all__ = ["keep_docstrings"]


def keep_docstrings(build: Path, sources: Iterable[str]) -> int:
    """Write the docstrings of *sources* into the C files mypyc generated in *build*.

    Returns how many docstrings were written. Names are matched by mypyc's C symbols
    (``CPyPy_<module>___<Class>___<method>``, the module by a dotted suffix of its
    name); a symbol two sources could own is left without a docstring.
    """
    docs = _docstrings(sources)
    written = 0
    for path in sorted(build.glob("*.c")):
        text = path.read_text(encoding="utf-8")
        text, count = _write_docstrings(text, docs)
        path.write_text(text, encoding="utf-8")
        written += count
    return written


def _docstrings(sources: Iterable[str]) -> dict[str, str]:
    """The docstrings of *sources* by C name.

    Modules by their dotted name, functions, classes and their members by C symbol,
    and classes also by ``path:line`` (a class mypyc leaves to Python, such as a
    ``NamedTuple``, is known in the C by where it is defined).
    """
    found: dict[str, str | None] = {}
    for source in sources:
        path = Path(source)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = ".".join(path.with_suffix("").parts)
        names = {module: ast.get_docstring(tree)}
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                names[f"{source}:{node.lineno}"] = ast.get_docstring(node)
        parts = module.split(".")
        for start in range(len(parts)):
            prefix = "___".join(parts[start:])
            for qualname, doc in _definitions(tree.body, ""):
                names[f"{prefix}___{qualname}"] = doc
        for name, doc in names.items():
            found[name] = None if name in found else doc  # None: two owners
    return {name: doc for name, doc in found.items() if doc}


def _definitions(body: list[ast.stmt], outer: str) -> Iterator[tuple[str, str | None]]:
    """``(Class___name, docstring)`` of the functions and classes in *body*."""
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            name = f"{outer}{node.name}"
            if not _is_overload(node):
                yield name, ast.get_docstring(node)
            if isinstance(node, ast.ClassDef):
                yield from _definitions(node.body, f"{name}___")


def _is_overload(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    """Whether *node* is an ``@overload`` stub (its docstring is the implementation's)."""
    return any(
        (isinstance(d, ast.Name) and d.id == "overload")
        or (isinstance(d, ast.Attribute) and d.attr == "overload")
        for d in node.decorator_list
    )


_C_STRING = r'"((?:[^"\\]|\\.)*)"'
"""A C string literal; its contents are group 1 (of this part of a pattern)."""
_FUNCTION = re.compile(
    r"\(PyCFunction\)CPyPy_(\w+),(\s*[^,{}]+,\s*)PyDoc_STR\(" + _C_STRING + r"\)"
)
"""A function's or method's entry in a method table: its symbol and its signature."""
_CLASS = re.compile(
    r"(CPyType_(\w+)_template_ = \{[^}]*?\.tp_doc = )PyDoc_STR\(" + _C_STRING + r"\)"
)
"""A class's template and its signature (``tp_doc``)."""
_PROPERTY = re.compile(
    r'(\{"(\w+)",\s*\(getter\)(\w+)_get_\2,\s*(?:NULL|\(setter\)\w+),\s*)NULL,'
)
"""A property's entry in a class's table of getters; its docstring is ``NULL``."""
_MODULE = re.compile(
    r'(PyModuleDef_HEAD_INIT,\s*"([\w.]+)",\s*)NULL, /\* docstring \*/'
)
"""A module's definition; its docstring is ``NULL``."""
_FILLER = re.compile(
    r"(cpy_r_\w+) = (CPyStatics\[\d+\]); /\* 'mypyc filler docstring' \*/"
    r'(?=(?:(?!CPy_AddTraceback).)*CPy_AddTraceback\("([^"]+)", "<module>", (\d+),)',
    re.DOTALL,
)
"""The docstring mypyc gives a class it leaves to Python (a ``NamedTuple``), and
where that class is defined (the traceback that follows)."""
_SIGNATURE_END = r"\n--\n\n"
"""How mypyc's text signature ends in C (``\\n--\\n\\n``): the docstring follows it."""


def _write_docstrings(text: str, docs: dict[str, str]) -> tuple[str, int]:
    """*text* (C) with the docstrings of *docs* written in, and how many."""
    count = 0

    def write(match: re.Match[str], key: str, render: Callable[[str], str]) -> str:
        """*render* of the docstring *key* names as C literals, or *match* unchanged."""
        nonlocal count
        doc = docs.get(key)
        if doc is None:
            return match[0]
        count += 1
        return render(_c_string(doc))

    def function(match: re.Match[str]) -> str:
        symbol, between, signature = match.groups()
        if not signature.endswith(_SIGNATURE_END):
            return match[0]
        return write(
            match,
            symbol,
            lambda doc: (
                f'(PyCFunction)CPyPy_{symbol},{between}PyDoc_STR("{signature}" {doc})'
            ),
        )

    def cls(match: re.Match[str]) -> str:
        head, symbol, signature = match.groups()
        if not signature.endswith(_SIGNATURE_END):
            return match[0]
        return write(match, symbol, lambda doc: f'{head}PyDoc_STR("{signature}" {doc})')

    def prop(match: re.Match[str]) -> str:
        head, name, owner = match.groups()
        return write(match, f"{owner}___{name}", lambda doc: f"{head}PyDoc_STR({doc}),")

    def module(match: re.Match[str]) -> str:
        head, name = match.groups()
        return write(
            match, name, lambda doc: f"{head}PyDoc_STR({doc}), /* docstring */"
        )

    def filler(match: re.Match[str]) -> str:
        variable, static, source, line = match.groups()
        return write(
            match,
            f"{source}:{line}",
            lambda doc: (  # a new reference, kept by the class for good
                f"{variable} = PyUnicode_FromString({doc});\n"
                f"    if (unlikely({variable} == NULL)) {{\n"
                f"        PyErr_Clear();\n"
                f"        {variable} = {static};\n"
                f"    }}"
            ),
        )

    for pattern, replace in (
        (_FILLER, filler),
        (_FUNCTION, function),
        (_CLASS, cls),
        (_PROPERTY, prop),
        (_MODULE, module),
    ):
        text = pattern.sub(replace, text)
    return text, count


def _c_string(text: str) -> str:
    """*text* as C string literals: UTF-8, escaped, in pieces the compiler joins.

    A piece holds at most `_PIECE` characters of source (MSVC refuses longer ones).
    """
    pieces: list[str] = []
    piece: list[str] = []
    length = 0
    for byte in text.encode("utf-8"):
        char = chr(byte)
        if char == "\n":
            char = "\\n"
        elif char in '"\\?' or not 32 <= byte < 127:
            char = f"\\{byte:03o}"
        if length + len(char) > _PIECE:
            pieces.append("".join(piece))
            piece, length = [], 0
        piece.append(char)
        length += len(char)
    pieces.append("".join(piece))
    return " ".join(f'"{piece}"' for piece in pieces)


_PIECE = 2000
"""The most source characters in one C string literal (MSVC's limit is 2,048 bytes)."""
