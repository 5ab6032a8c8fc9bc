# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""The bench scripts' tests: made-up guest output and traces as files."""
import contextlib
import os
import tempfile


@contextlib.contextmanager
def text_files(*texts):
    """Each text in a temporary .txt file; yields their names, removed after."""
    names = []
    try:
        for text in texts:
            with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
                f.write(text)
            names.append(f.name)
        yield names
    finally:
        for name in names:
            os.unlink(name)
