"""The hand-written `BaseRules` signature of the API reference lists every setting."""

from __future__ import annotations

import re
from pathlib import Path

import attrs

from tienlen import BaseRules, GameState

API = Path(__file__).parents[2] / "docs" / "api.md"


def test_the_written_signature_names_every_setting_in_order() -> None:
    """Each init field of `BaseRules` appears in docs/api.md's signature, in field order."""
    text = API.read_text(encoding="utf-8")
    found = re.search(r"^\.\. autoclass:: BaseRules\(\*, (.*)\)$", text, re.MULTILINE)
    assert found is not None
    written = [part.split("=")[0].strip() for part in _top_level(found[1])]
    fields = [field.name for field in attrs.fields(BaseRules) if field.init]
    assert written == fields


def _top_level(signature: str) -> list[str]:
    """*signature* split at the commas outside brackets."""
    parts, depth, start = [], 0, 0
    for i, char in enumerate(signature):
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth == 0:
            parts.append(signature[start:i])
            start = i + 1
    return [*parts, signature[start:]]


def test_every_public_member_of_the_state_is_documented() -> None:
    """docs/api.md lists every public member of `GameState` (its list is explicit)."""
    text = API.read_text(encoding="utf-8")
    found = re.search(
        r"autoclass:: GameState\(\)\n   :members: (.*?)\n\n", text, re.DOTALL
    )
    assert found is not None
    listed = {name.strip() for name in found[1].split(",")}
    public = {name for name in dir(GameState) if not name.startswith("_")}
    assert public <= listed, sorted(public - listed)


def test_the_documentation_url_is_the_built_docs_home() -> None:
    """Issue 22 §11: pyproject's Documentation URL is the built docs, not raw files.

    `tienlen.sections.DOCS_URL` (the links of `rule_section`) lives under it.
    """
    import tomllib  # noqa: PLC0415

    from tienlen.sections import DOCS_URL  # noqa: PLC0415

    project = tomllib.loads((API.parents[1] / "pyproject.toml").read_text("utf-8"))
    url = project["project"]["urls"]["Documentation"]
    assert url == "https://tienlen.readthedocs.io/"
    assert DOCS_URL.startswith(url)
    assert "github.com" not in url


def test_no_private_name_in_a_documented_signature() -> None:
    """Issue 22 §11: the public names' annotations name no private alias or class."""
    import inspect  # noqa: PLC0415

    import tienlen  # noqa: PLC0415
    from tienlen import messages  # noqa: PLC0415

    shown: list[str] = [str(messages.__annotations__["CATALOGUE"])]
    for name in tienlen.__all__:
        value = getattr(tienlen, name)
        if callable(value) and not isinstance(value, type):
            shown.append(str(inspect.signature(value)))
    private = [text for text in shown if re.search(r"(?<![\w.])_[A-Za-z]\w*", text)]
    assert private == []
