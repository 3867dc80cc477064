"""Hatchling build hook: the wheel carries the git commit it was built from
(``beggar_search/_commit.txt``, read by ``beggar_search.version.commit``)."""

import subprocess
import tempfile
from pathlib import Path

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CommitHook(BuildHookInterface):
    """Write the commit of the tree being built into the wheel (not an editable one: that
    reads it from the checkout at run time)."""

    PLUGIN_NAME = "custom"

    def initialize(self, version, build_data):
        """Add ``beggar_search/_commit.txt`` to a regular wheel."""
        if self.target_name != "wheel" or version == "editable":
            return
        try:
            done = subprocess.run(["git", "-C", self.root, "rev-parse", "HEAD"],
                                  capture_output=True, text=True, timeout=10, check=False)
            commit = done.stdout.strip() if done.returncode == 0 else ""
        except OSError:
            commit = ""
        folder = Path(tempfile.mkdtemp(prefix="beggar-search-build-"))
        path = folder / "_commit.txt"
        path.write_text((commit or "unknown") + "\n")
        build_data["force_include"][str(path)] = "beggar_search/_commit.txt"
