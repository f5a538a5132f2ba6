"""Files a command will write, checked before the work starts (a table that takes an hour to
build is not then lost to a typo in ``--save``).
"""

from __future__ import annotations

import os
from pathlib import Path

from noughts.core import NoughtsError

__all__ = ["check_writable"]


def check_writable(path: Path, option: str, suffixes: tuple[str, ...] = ()) -> Path:
    """``path`` if a file can be written there: its folder exists and is writable, it is not a
    folder itself, and its name ends in one of ``suffixes`` (when given); else ``NoughtsError``
    naming ``option``.
    """
    if path.is_dir():
        raise NoughtsError(f"{option} {path} is a folder; give a file name")
    if suffixes and path.suffix not in suffixes:
        raise NoughtsError(f"{option} names a {' or '.join(suffixes)} file, not {path.name!r}")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise NoughtsError(f"{option} {path}: there is no folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise NoughtsError(f"{option} {path}: cannot write there (permission denied)")
    return path
