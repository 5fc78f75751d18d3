"""The page's modules (web/src) form no import cycle: the graph of their
static imports, read from the sources, is walked depth first and a cycle
fails with its modules named. No browser is needed.

Run:  /usr/bin/python3 -m pytest -q tests/browser/test_modules.py
"""
import os
import re

SRC = os.path.join(os.path.dirname(__file__), "..", "..", "web", "src")
IMPORT = re.compile(r'^\s*import\s+(?:[^"\';]*?\s+from\s+)?["\']\./([\w-]+)(?:\.[jt]s)?["\']', re.M)


def module_graph(src):
    """{module: [the page's modules it imports]} for every .js and .ts module (not .d.ts)."""
    graph = {}
    for name in os.listdir(src):
        if name.endswith(".d.ts") or not (name.endswith(".js") or name.endswith(".ts")):
            continue
        with open(os.path.join(src, name)) as f:
            graph[name.rsplit(".", 1)[0]] = sorted(set(IMPORT.findall(f.read())))
    return graph


def find_cycle(graph):
    """A cycle as a list of modules (the first repeated at the end), or None."""
    state = {}  # module -> 1 on the walk's path, 2 done
    path = []

    def visit(m):
        state[m] = 1
        path.append(m)
        for d in graph.get(m, []):
            if state.get(d) == 1:
                return path[path.index(d):] + [d]
            if d not in state:
                found = visit(d)
                if found:
                    return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_cycle():
    """The check itself: a graph with a cycle is caught, one without passes."""
    assert find_cycle({"a": ["b"], "b": ["c"], "c": ["a"], "d": []}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": ["b", "c"], "b": ["c"], "c": []}) is None


def test_every_import_names_an_existing_module():
    graph = module_graph(SRC)
    assert "main" in graph and len(graph) > 10, sorted(graph)
    missing = [(m, d) for m, deps in graph.items() for d in deps if d not in graph]
    assert missing == [], missing


def test_the_page_modules_form_no_import_cycle():
    cycle = find_cycle(module_graph(SRC))
    assert cycle is None, "import cycle: " + " -> ".join(cycle)
