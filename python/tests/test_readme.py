"""The READMEs' Python examples, run: every ```pycon block of python/README.md
and of the repository's README.md is a doctest, so an example that drifts
from what the package returns fails the suite."""

import doctest
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
READMES = [ROOT / "python" / "README.md", ROOT / "README.md"]
BLOCK = re.compile(r"^```pycon\n(.*?)^```$", re.MULTILINE | re.DOTALL)


def blocks(readme):
    """The pycon blocks of `readme`, each with the line it starts on."""
    text = readme.read_text()
    return [
        (text.count("\n", 0, m.start(1)) + 1, m.group(1))
        for m in BLOCK.finditer(text)
    ]


def test_every_readme_has_python_examples():
    # A renamed fence (```python) would silently drop a README from the test.
    for readme in READMES:
        assert blocks(readme), f"{readme} has no ```pycon block"


@pytest.mark.parametrize("readme", READMES, ids=lambda p: p.parent.name + "/" + p.name)
def test_readme_python_examples(readme, tmp_path, monkeypatch):
    # The examples write files (dom8.cnf, …): into a fresh directory. The
    # blocks of one README share their names, as in one session.
    monkeypatch.chdir(tmp_path)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    globs = {}
    for line, block in blocks(readme):
        test = parser.get_doctest(block, globs, readme.name, str(readme), line)
        runner.run(test, clear_globs=False)
        globs = test.globs  # the DocTest ran on a copy
    failed, attempted = runner.summarize(verbose=False)
    assert attempted > 0
    assert failed == 0, f"{failed} of {attempted} examples of {readme} failed (the output above)"
