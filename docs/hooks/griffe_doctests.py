"""A Griffe extension for the API reference (mkdocstrings): the docstrings are written for
doctest and read in reStructuredText's habits, so before they are rendered as Markdown each
doctest run (``>>>`` lines and their output, up to a blank line) becomes a fenced ``pycon``
block, Sphinx roles (``:func:`solve```) become code spans, and a paragraph's closing ``::``
becomes ``:``. The docstrings themselves are left as they are.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|class|mod|meth|attr|data|exc|obj|const|term):`~?([^`]+)`")


def markdown(text: str) -> str:
    """The docstring ``text`` with its doctests fenced and its reST roles turned into code."""
    out: list[str] = []
    fenced = False  # inside a ``` block the docstring wrote itself
    doctest = False
    for line in text.splitlines():
        stripped = line.lstrip()
        indent = len(line) - len(stripped)
        if doctest and not stripped:
            out.append("```")
            doctest = False
        if stripped.startswith("```"):
            fenced = not fenced
        elif not fenced and not doctest and stripped.startswith(">>>") and indent < 4:
            out.append(" " * indent + "```pycon")
            doctest = True
        if not fenced and not doctest:
            line = ROLE.sub(r"`\1`", line)
            if line.endswith("::") and not line.endswith(":::"):
                line = line[:-1]
        out.append(line)
    if doctest:
        out.append("```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = markdown(obj.docstring.value)

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        # the package loaded by name (``::: noughts``) comes here, not through on_object
        self.on_object(obj=pkg)
