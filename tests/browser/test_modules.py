"""The page's modules (web/src) form no import cycle: the graph of their
static imports, read from the sources, is walked depth first and a cycle
fails with its modules named. The controller (ctrl.js) alone writes the
page's state (S, state.js): a write to it anywhere else fails, named by file
and line. No type is `any` (nor JSDoc's `*`) outside the JSON boundary
(api.js, transport.js): read from every JSDoc type and from types.d.ts. No
browser is needed.

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


# ---- one controller alone writes the state -------------------------------------
CONTROLLER = "ctrl.js"
STATE_MODULE = "state.js"  # where S is made
# S.<field> (then .<name> or [index] any number of times) written: assigned,
# compound-assigned, incremented, deleted, or changed in place by a method of
# an array, a Map or a Set.
STATE_WRITE = re.compile(
    r"\b(?:S|state)\.(\w+)(?:\.\w+|\[[^\]\n]*\])*"
    r"\s*(?:(?:[-+*/%|&]|\*\*|\?\?|\|\||&&)?=(?!=)|\+\+|--"
    r"|\.(?:push|pop|shift|unshift|splice|sort|reverse|fill|set|delete|clear|add)\()")
DELETE = re.compile(r"(?:\bdelete\s+|\+\+\s*|--\s*)\b(?:S|state)\.(\w+)")  # deleted, or incremented first


def strip_comments(text):
    """The code without its comments (kept line for line: a block comment's newlines stay)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return re.sub(r"(?<![:\\\"'])//.*$", "", text, flags=re.M)


def state_writes(text):
    """[(line, field, code)] for each write to the state in the module's code."""
    code = strip_comments(text)
    found = []
    for n, line in enumerate(code.split("\n"), 1):
        for m in STATE_WRITE.finditer(line):
            found.append((n, m.group(1), m.group(0).strip()))
        for m in DELETE.finditer(line):
            found.append((n, m.group(1), m.group(0).strip()))
    return found


def module_sources(src):
    """{file name: text} for every .js module of the page."""
    out = {}
    for name in sorted(os.listdir(src)):
        if name.endswith(".js"):
            with open(os.path.join(src, name)) as f:
                out[name] = f.read()
    return out


def test_the_state_write_finder_finds_writes():
    """The check itself: each kind of write is found, a read or a comparison is not."""
    code = "\n".join([
        "S.pos = 3;", "S.players[c] = 'human';", "S.stats.solve[name] = x;", "S.token++;", "--S.token;",
        "S.line.push(mv);", "S.games[v] = g;", "state.data = a;", "S.seed += 1;", "delete S.review;",
        "if (S.pos === 3) x = S.data;", "f(S.line.slice(0));", "// S.pos = 1 in a comment",
        "var s = 'http://x'; y = S.variant == v;"])
    fields = [f for _, f, _ in state_writes(code)]
    assert fields == ["pos", "players", "stats", "token", "token", "line", "games", "data", "seed", "review"], fields
    assert [n for n, _, _ in state_writes("a;\n/* S.x = 1\n */\nS.y = 2;")] == [4]


def test_only_the_controller_writes_the_state():
    sources = module_sources(SRC)
    assert CONTROLLER in sources and STATE_MODULE in sources, sorted(sources)
    # the controller's own writes are found (the check sees what it looks for)
    mine = {f for _, f, _ in state_writes(sources[CONTROLLER])}
    assert {"line", "pos", "answers", "data", "selection", "busy", "players", "match", "review"} <= mine, sorted(mine)
    elsewhere = ["%s:%d: %s" % (name, n, code)
                 for name, text in sources.items() if name not in (CONTROLLER, STATE_MODULE)
                 for n, _, code in state_writes(text)]
    assert elsewhere == [], "the state written outside the controller (ctrl.js):\n" + "\n".join(elsewhere)


# ---- no `any` outside the JSON boundary -----------------------------------------
JSON_BOUNDARY = ("api.js", "transport.js")
JSDOC_TAG = re.compile(r"@(?:type|param|returns?|typedef|template|property|prop|satisfies|this|enum|callback|throws)\s*\{")
# `any` by name, or JSDoc's any (`*`, or `?` alone)
ANY_TYPE = re.compile(r"\bany\b|\*|^\s*\?\s*$")


def jsdoc_types(text):
    """[(line, type expression)] for every JSDoc tag's {type} in the module (braces balanced)."""
    out = []
    for m in JSDOC_TAG.finditer(text):
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[i], 0)
            i += 1
        # (a type over several lines of the comment: each line's leading "*" is not the type's)
        out.append((text.count("\n", 0, m.start()) + 1, re.sub(r"\n\s*\*", " ", text[m.end():i - 1])))
    return out


def declared_types(text):
    """The lines of a .d.ts file without their comments: [(line, code)]."""
    return [(n, line) for n, line in enumerate(strip_comments(text).split("\n"), 1) if line.strip()]


def any_types(name, text):
    """["file:line: type"] for each type of the module that is `any`, or contains it."""
    pairs = declared_types(text) if name.endswith(".d.ts") else jsdoc_types(text)
    return ["%s:%d: %s" % (name, n, t.strip()) for n, t in pairs if ANY_TYPE.search(t)]


def test_the_any_finder_finds_any():
    """The check itself: `any`, `*` and `?` in a type are found; the word in a comment or in code is not."""
    code = "\n".join(["/** @param {any} x */", "/** @type {Record<string, *>} */", "/** @returns {?} */",
                      "/** @type {{a: {b: any[]}}} */", "// at any width", "var many = 1;",
                      "/** @param {{puzzle?: number}} p @returns {Promise<unknown>} */"])
    assert [t.split(": ", 1)[1] for t in any_types("x.js", code)] == [
        "any", "Record<string, *>", "?", "{a: {b: any[]}}"]
    assert any_types("x.d.ts", "// any comment\nexport interface A {\n  x: any;\n  many: number;\n}") == [
        "x.d.ts:3: x: any;"]


def test_no_any_outside_the_json_boundary():
    files = {}
    for name in sorted(os.listdir(SRC)):
        if name.endswith(".js") or name.endswith(".d.ts"):
            with open(os.path.join(SRC, name)) as f:
                files[name] = f.read()
    assert all(b in files for b in JSON_BOUNDARY) and "types.d.ts" in files, sorted(files)
    # the check reads the page's types: every module's JSDoc types, many of them
    typed = sum(len(jsdoc_types(t)) for n, t in files.items() if n.endswith(".js"))
    assert typed > 150, typed
    loose = [a for name, text in files.items() if name not in JSON_BOUNDARY for a in any_types(name, text)]
    assert loose == [], "`any` outside the JSON boundary (%s):\n" % ", ".join(JSON_BOUNDARY) + "\n".join(loose)


# ---- $(id)'s kinds are index.html's ----------------------------------------------
TAG_OF = {"HTMLSelectElement": "select", "HTMLInputElement": "input", "HTMLTextAreaElement": "textarea",
          "HTMLDetailsElement": "details", "HTMLDialogElement": "dialog", "HTMLButtonElement": "button"}


def test_the_elements_typed_by_id_are_those_of_the_page():
    """$(id) is typed by types.d.ts PageElements (a cast in state.js): each id named there is an
    element of that kind in web/index.html."""
    with open(os.path.join(SRC, "types.d.ts")) as f:
        decl = f.read()
    body = re.search(r"interface PageElements \{(.*?)\n\}", decl, re.S).group(1)
    kinds = re.findall(r'"([\w-]+)":\s*(\w+);', body)
    assert len(kinds) > 10, kinds
    with open(os.path.join(SRC, "..", "index.html")) as f:
        page = f.read()
    wrong = []
    for ident, kind in kinds:
        tags = re.findall(r'<(\w+)\b[^>]*\bid="%s"' % re.escape(ident), page)
        if tags != [TAG_OF[kind]]:
            wrong.append("%s: %s in types.d.ts, %s in index.html" % (ident, kind, tags or "none"))
    assert wrong == [], "\n".join(wrong)
