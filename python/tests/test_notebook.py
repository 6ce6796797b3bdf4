"""The example notebook (examples/notebook.ipynb), executed as Jupyter would execute it, so that it never
rots: every cell runs, and the results show their answers and charts."""

from __future__ import annotations

import nbformat
from nbclient import NotebookClient

from test_api import ROOT


def test_the_example_notebook_runs() -> None:
    notebook = nbformat.read(ROOT / "examples" / "notebook.ipynb", as_version=4)
    client = NotebookClient(notebook, timeout=600, kernel_name="python3")
    client.execute(cwd=str(ROOT / "examples"))
    shown = [
        output["data"]["text/html"]
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if "text/html" in output.get("data", {})
    ]
    charts = [html for html in shown if "<svg" in html]
    assert len(charts) >= 4, "the run, the sweep, the solve and the board each show a picture"
    assert any("<summary>Headline odds</summary>" in html for html in shown)
