"""Render the key tables of docs/json.md from docs/json-schema.json.

The prose at the top of docs/json.md is written by hand; everything after the marker line is
this script's output (``python scripts/json_docs.py`` rewrites it; ``--check`` exits 1 when
the file is not up to date, as tests/test_json_schema.py checks).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = ROOT / "docs" / "json-schema.json"
PAGE = ROOT / "docs" / "json.md"
MARKER = "<!-- Everything below is generated from docs/json-schema.json by scripts/json_docs.py -->"


def type_of(prop: dict) -> str:
    """A property's JSON type in words: ``integer``, ``string or null``, ``list of ...``."""
    if "$ref" in prop:
        return f"[{prop['$ref'].rsplit('/', 1)[1]}](#{anchor(prop['$ref'].rsplit('/', 1)[1])})"
    if "anyOf" in prop:
        return " or ".join(type_of(choice) for choice in prop["anyOf"])
    kind = prop.get("type", "object")
    kinds = kind if isinstance(kind, list) else [kind]
    words = []
    for one in kinds:
        if one == "array":
            words.append(f"list of {type_of(prop.get('items', {}))}")
        elif one == "object" and "additionalProperties" in prop and isinstance(
                prop["additionalProperties"], dict):
            words.append(f"object of {type_of(prop['additionalProperties'])}")
        else:
            words.append(one)
    text = " or ".join(words)
    if "enum" in prop:
        text += ": " + ", ".join(f"`{json.dumps(value)}`" for value in prop["enum"])
    return text


def anchor(name: str) -> str:
    """The anchor MkDocs gives the heading of record type ``name``."""
    return f"record-{name.replace('_', '-')}"


def render(schema: dict) -> str:
    """The generated part of docs/json.md."""
    lines = [MARKER, "", "## Which command prints which records", "",
             "| command | records, one JSON object per line |", "|---|---|"]
    for command, records in schema["x-commands"].items():
        links = ", then ".join(f"[{name}](#{anchor(name)})" for name in records)
        lines.append(f"| `{command} --json` | {links} |")
    lines += ["", "## Record types", ""]
    for name, record in schema["$defs"].items():
        lines += [f"### {name} {{#{anchor(name)}}}", "", record["description"], "",
                  "| key | type | always | meaning |", "|---|---|---|---|"]
        required = set(record.get("required", ()))
        for key, prop in record["properties"].items():
            shown = f"~~`{key}`~~ (deprecated)" if prop.get("deprecated") else f"`{key}`"
            meaning = (prop.get("description") or "").replace("|", "\\|")
            lines.append(f"| {shown} | {type_of(prop)} | {'yes' if key in required else ''}"
                         f" | {meaning} |")
        lines.append("")
    return "\n".join(lines)


def page(schema: dict, current: str) -> str:
    """docs/json.md with its generated part rebuilt from ``schema``."""
    head = current.split(MARKER, 1)[0]
    return head + render(schema)


def main(argv: list[str]) -> int:
    """Rewrite docs/json.md (or, with ``--check``, say whether it is up to date)."""
    schema = json.loads(SCHEMA.read_text())
    current = PAGE.read_text()
    wanted = page(schema, current)
    if "--check" in argv:
        if wanted != current:
            print("docs/json.md is not up to date: run python scripts/json_docs.py",
                  file=sys.stderr)
            return 1
        return 0
    PAGE.write_text(wanted)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
