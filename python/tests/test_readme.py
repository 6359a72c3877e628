"""The Python examples of the READMEs and the guide, run: every ```pycon
block of python/README.md, of the repository's README.md and of every page
under docs/ is a doctest, so an example that drifts from what the package
returns fails the suite."""

import doctest
import pathlib
import re

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BLOCK = re.compile(r"^```pycon\n(.*?)^```$", re.MULTILINE | re.DOTALL)
# Pages that must keep Python examples: a renamed fence (```python) would
# silently drop them from the test.
MUST = [ROOT / "python" / "README.md", ROOT / "docs" / "python.md"]


def blocks(readme):
    """The pycon blocks of `readme`, each with the line it starts on."""
    text = readme.read_text()
    return [
        (text.count("\n", 0, m.start(1)) + 1, m.group(1))
        for m in BLOCK.finditer(text)
    ]


def pages():
    """Every page with a pycon block: the READMEs and the guide."""
    candidates = [ROOT / "README.md", ROOT / "python" / "README.md"]
    candidates += sorted((ROOT / "docs").rglob("*.md"))
    return [page for page in candidates if blocks(page)]


def test_the_python_pages_have_python_examples():
    for readme in MUST:
        assert blocks(readme), f"{readme} has no ```pycon block"
    assert set(MUST) <= set(pages())


@pytest.mark.parametrize("readme", pages(), ids=lambda p: str(p.relative_to(ROOT)))
def test_readme_python_examples(readme, tmp_path, monkeypatch):
    # The examples write files (dom8.cnf, …): into a fresh directory. The
    # blocks of one page share their names, as in one session.
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
