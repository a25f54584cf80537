"""The package's layers, bottom to top: a module imports only from the layers below it
(or from its own subpackage), so the house has no circle and nothing reaches upward.

Lazy imports inside functions count: a circle hidden behind them is still a circle.
"""

import ast
from pathlib import Path

import cinch_sim

ROOT = Path(cinch_sim.__file__).parent

# Bottom first. Each entry is a top-level module or a subpackage of cinch_sim.
LAYERS = (
    ("version",),  # the package version, under everything (the package imports it)
    # the vocabulary
    ("__init__", "cards", "bits", "rng", "layout", "signatures", "outputs", "notation")
    + ("text_tables", "student")
    + ("checks", "views", "interrupts"),
    ("rules",),  # the rules object every layer above reads
    ("jit",),  # numba plumbing
    ("solver",),  # the double-dummy solver: the players above may search with it
    ("policies",),  # the jitted players, their registry and loader
    ("engine",),  # the kernel and its runner
    ("records", "analysis"),  # hand records and the referee; statistics over hands
    ("advisor", "matches"),  # one hand's advice; games between strategies
    ("runs",),  # long runs in chunks: saved, resumed, merged (any executor)
    ("report",),  # the strategy report
    ("api",),  # the Python facade
    ("web",),  # the local web page, over the API
    ("cli",),  # the command line
    ("__main__",),  # python -m cinch_sim
)
LAYER_OF = {name: i for i, names in enumerate(LAYERS) for name in names}
# The one import that reaches up: the package offers the API's names, importing
# cinch_sim.api inside its module __getattr__ (PEP 562) on first use. It cannot make a
# circle: the package is loaded before any of its modules, and the import runs only
# when a user asks for a name, never while the package itself is being imported.
LAZY_REEXPORT = ("cinch_sim", "cinch_sim.api")


def unit_of(module: str) -> str:
    """The layer unit of a dotted module name: its first part below cinch_sim."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _module_getattr(tree: ast.Module) -> ast.FunctionDef | None:
    return next(
        (n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "__getattr__"), None
    )


def _in_module_getattr(tree: ast.Module, node: ast.AST) -> bool:
    fn = _module_getattr(tree)
    return fn is not None and node in set(ast.walk(fn))


def _is_module(name: str) -> bool:
    return (ROOT / f"{name}.py").exists() or (ROOT / name).is_dir()


def imports_of(path: Path, module: str) -> set[str]:
    tree = ast.parse(path.read_text())
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(tree):
        if module == "cinch_sim" and _in_module_getattr(tree, node):
            continue  # LAZY_REEXPORT: checked by test_the_package_reexports_only_lazily
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.startswith("cinch_sim")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            if name.startswith("cinch_sim"):
                found.add(name)
                if name == "cinch_sim":  # from cinch_sim import layout: the module layout
                    found |= {f"{name}.{a.name}" for a in node.names if _is_module(a.name)}
    return found


def modules():
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT.parent).with_suffix("")
        parts = list(rel.parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        yield path, ".".join(parts)


def test_every_unit_has_a_layer():
    units = {unit_of(m) for _, m in modules()}
    assert units - set(LAYER_OF) == set()


def test_no_import_reaches_up_or_sideways():
    wrong = []
    for path, module in modules():
        mine = unit_of(module)
        for target in imports_of(path, module):
            theirs = unit_of(target)
            if theirs == mine or target == "cinch_sim":
                continue
            if LAYER_OF[theirs] >= LAYER_OF[mine]:
                wrong.append(f"{module} -> {target}")
    assert wrong == []


def test_the_package_reexports_only_lazily():
    """cinch_sim/__init__.py imports cinch_sim.api only inside its ``__getattr__``."""
    tree = ast.parse((ROOT / "__init__.py").read_text())
    fn = _module_getattr(tree)
    assert fn is not None
    inside = {
        f"{n.module}.{a.name}"
        for n in ast.walk(fn)
        if isinstance(n, ast.ImportFrom)
        for a in n.names
    }
    assert LAZY_REEXPORT[1] in inside
    # at the top only the version, a module of one line
    assert imports_of(ROOT / "__init__.py", "cinch_sim") <= {"cinch_sim", "cinch_sim.version"}
