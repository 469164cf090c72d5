"""The package's layout is its architecture: no import cycle between modules, and each package
imports only from the packages below it (docs/architecture.md draws the same order)."""
import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# the installed package `ygo_timing` is checks/, with model/ as ygo_timing.model
PACKAGE_DIRS = {"ygo_timing": ROOT / "checks", "ygo_timing.model": ROOT / "model"}
# lowest first: a package may import from its own and from those before it in the list
LAYERS = ["model", "errors", "progress", "inputs", "cards", "checking", "symbolic", "output", "api", "cli", "pytest_plugin"]


def modules():
    out = {}
    for prefix, base in PACKAGE_DIRS.items():
        for f in base.rglob("*.py"):
            rel = f.relative_to(base).with_suffix("")
            parts = [p for p in rel.parts if p != "__init__"]
            name = ".".join([prefix, *parts])
            if prefix == "ygo_timing" and parts and parts[0] == "model":
                continue
            out[name] = f
    return out


def imports_of(name, path):
    tree = ast.parse(path.read_text())
    pkg = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = pkg.split(".")[: len(pkg.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            found.add(base)
            found |= {f"{base}.{a.name}" for a in node.names}
    return {m for m in found if m.startswith("ygo_timing")}


MODS = modules()
GRAPH = {m: {d for d in imports_of(m, p) if d in MODS and d != m} for m, p in MODS.items()}


def layer(mod):
    parts = mod.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else None


def test_no_import_cycle():
    state, stack = {}, []

    def visit(m):
        state[m] = "open"
        stack.append(m)
        for d in sorted(GRAPH[m]):
            if state.get(d) == "open":
                pytest.fail("import cycle: " + " -> ".join(stack[stack.index(d):] + [d]))
            if d not in state:
                visit(d)
        stack.pop()
        state[m] = "done"

    for m in sorted(GRAPH):
        if m not in state:
            visit(m)


@pytest.mark.parametrize("mod", sorted(m for m in MODS if layer(m) is not None))
def test_imports_only_from_lower_layers(mod):
    upward = sorted(d for d in GRAPH[mod] if layer(d) is not None and layer(d) > layer(mod))
    assert not upward, f"{mod} imports from a higher layer: {upward} (order: {LAYERS})"


def test_no_test_module_imports_a_name_pytest_would_collect():
    # a function imported as `test...` into a test module is collected as a test and run with its
    # parameters taken for fixtures: CI failed once on `from ...explain import tester`
    found = []
    for f in sorted((ROOT / "tests").glob("test_*.py")):
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ImportFrom):
                found += [f"{f.name}: {a.name}" for a in node.names if (a.asname or a.name).startswith("test")]
    assert not found, found
