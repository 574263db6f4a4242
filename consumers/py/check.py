"""The Python consumers of the published bundle (run by consumers/run.sh).

    python consumers/py/check.py BUNDLE_DIR VECTORS_DIR DIVERGENCES_JSON WORK_DIR

1. `python-jsonschema`: `jsonschema` (Draft 2020-12) with an explicit `referencing.Registry` of
   every bundle file and no retrieval (an unknown `$ref` fails instead of being fetched), the
   format checker of the `format-nongpl` extra; checks every golden vector's verdict and
   normalized error instance paths (tests/vectors/README.md).
2. `jsonschema-rs`: the same with the `jsonschema-rs` binding (the Rust engine), offline.
3. `pydantic`: generates pydantic v2 models from the bundle with datamodel-code-generator
   (`--no-allow-remote-refs`) under WORK_DIR/py/models/, then round-trips every valid vector
   through the model of its root type in strict mode (`model_validate_json(..., strict=True)`, then
   `model_dump(mode="json", by_alias=True, exclude_unset=True)` must give the same JSON back).

Prints `<consumer>: N passed, M failed` per consumer; exits 1 when a verdict differs from the
expected one other than as consumers/divergences.json lists it (or a listed divergence did not
happen), 2 on a setup error.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import jsonschema_rs
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

CONSUMERS = ("python-jsonschema", "jsonschema-rs", "pydantic")


def fail(message: str) -> None:
    print(f"check.py: {message}", file=sys.stderr)
    sys.exit(2)


# ---------------------------------------------------------------------------------------------
# Vectors, divergences, tallies
# ---------------------------------------------------------------------------------------------


def load_vectors(vectors_dir: Path) -> list[dict[str, Any]]:
    vectors = []
    for root in sorted(p for p in vectors_dir.iterdir() if p.is_dir()):
        for expected in ("valid", "invalid"):
            for file in sorted((root / expected).glob("*.json")):
                doc = json.loads(file.read_text(encoding="utf-8"))
                doc.update(id=f"{root.name}/{expected}/{file.name}", root=root.name, expected=expected)
                vectors.append(doc)
    return vectors


def minimal(paths: set[str]) -> list[str]:
    """The shallowest of `paths` (a path under another one is dropped), sorted."""

    def under(path: str, base: str) -> bool:
        return path != "" if base == "" else path.startswith(base + "/")

    return sorted(p for p in paths if not any(o != p and under(p, o) for o in paths))


def pointer(parts) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def resolve_pointer(document: Any, fragment: str) -> Any:
    from urllib.parse import unquote

    node = document
    for raw in unquote(fragment).split("/")[1:]:
        token = raw.replace("~1", "/").replace("~0", "~")
        node = node[int(token)] if isinstance(node, list) else node[token]
    return node


def discriminated_branch(holder: Any, instance: Any) -> int | None:
    """The `oneOf` branch a `discriminator` beside it selects for `instance`, if any."""
    if not isinstance(holder, dict) or "discriminator" not in holder or not isinstance(instance, dict):
        return None
    tag = holder["discriminator"].get("propertyName")
    value = instance.get(tag)
    if not isinstance(value, str):
        return None
    for index, branch in enumerate(holder.get("oneOf", [])):
        if branch.get("properties", {}).get(tag, {}).get("const") == value:
            return index
    return None


class Tally:
    def __init__(self, consumer: str, divergences: dict, used: set) -> None:
        self.consumer = consumer
        self.passed = 0
        self.failed: list[str] = []
        self.divergent = 0
        self.divergences = divergences
        self.used = used

    def check(self, vector, expected_verdict, actual, paths, detail) -> None:
        key = (vector["id"], self.consumer)
        want_verdict, want_paths = expected_verdict, vector.get("errors")
        entry = self.divergences.get(key)
        if entry is not None:
            self.used.add(key)
            self.divergent += 1
            want_verdict = entry["verdict"]
            want_paths = entry.get("errors", want_paths)
        problem = None
        if actual != want_verdict:
            problem = f"verdict `{actual}`, expected `{want_verdict}`"
        elif actual == "invalid" and paths is not None and want_paths is not None and paths != want_paths:
            problem = f"error paths {paths}, expected {want_paths}"
        if problem:
            self.failed.append(f"{self.consumer} on {vector['id']}: {problem} ({detail})")
        else:
            self.passed += 1

    def report(self) -> None:
        print(
            f"{self.consumer}: {self.passed} passed, {len(self.failed)} failed"
            f" ({self.divergent} as listed divergences)"
        )
        for line in self.failed:
            print(f"  FAIL {line}")


# ---------------------------------------------------------------------------------------------
# python-jsonschema
# ---------------------------------------------------------------------------------------------


def python_jsonschema_paths(errors, out: set[str]) -> None:
    for error in errors:
        if error.validator == "oneOf":
            branch = discriminated_branch(error.schema, error.instance)
            if branch is not None:
                python_jsonschema_paths(
                    (e for e in error.context if e.relative_schema_path[0] == branch), out
                )
                continue
        out.add(pointer(error.absolute_path))


def run_python_jsonschema(index, documents, vectors, tally: Tally) -> None:
    # No `retrieve`: a `$ref` outside these resources raises instead of being fetched.
    registry = Registry().with_resources(
        (uri, Resource.from_contents(doc, default_specification=DRAFT202012))
        for uri, doc in documents.items()
    )
    checker = Draft202012Validator.FORMAT_CHECKER
    for fmt in index["formats"]:
        if fmt not in checker.checkers:
            fail(f"the format checker does not check `{fmt}` (is the format-nongpl extra installed?)")
    validators = {
        root["name"]: Draft202012Validator({"$ref": root["$ref"]}, registry=registry, format_checker=checker)
        for root in index["root_types"]
    }
    for vector in vectors:
        validator = validators[vector["root"]]
        errors: list[ValidationError] = list(validator.iter_errors(vector["instance"]))
        paths: set[str] = set()
        python_jsonschema_paths(errors, paths)
        detail = "; ".join(f"{pointer(e.absolute_path) or '(root)'} {e.message[:100]}" for e in errors[:4])
        tally.check(vector, vector["expected"], "invalid" if errors else "valid", minimal(paths), detail)


# ---------------------------------------------------------------------------------------------
# jsonschema-rs
# ---------------------------------------------------------------------------------------------


def jsonschema_rs_paths(errors, instance, documents, out: set[str]) -> None:
    for error in errors:
        if type(error.kind).__name__ == "OneOfNotValid" and error.absolute_keyword_location:
            resource, _, fragment = error.absolute_keyword_location.partition("#")
            if fragment.endswith("/oneOf") and resource in documents:
                holder = resolve_pointer(documents[resource], fragment[: -len("/oneOf")])
                here = resolve_pointer(instance, pointer(error.instance_path))
                branch = discriminated_branch(holder, here)
                if branch is not None:
                    jsonschema_rs_paths(error.kind.context[branch], instance, documents, out)
                    continue
        out.add(pointer(error.instance_path))


def run_jsonschema_rs(index, documents, vectors, tally: Tally) -> None:
    registry = jsonschema_rs.Registry(list(documents.items()))
    validators = {
        root["name"]: jsonschema_rs.Draft202012Validator(
            {"$ref": root["$ref"]}, registry=registry, validate_formats=True, offline=True
        )
        for root in index["root_types"]
    }
    for vector in vectors:
        validator = validators[vector["root"]]
        errors = list(validator.iter_errors(vector["instance"]))
        paths: set[str] = set()
        jsonschema_rs_paths(errors, vector["instance"], documents, paths)
        detail = "; ".join(f"{pointer(e.instance_path) or '(root)'} {e.message[:100]}" for e in errors[:4])
        tally.check(vector, vector["expected"], "invalid" if errors else "valid", minimal(paths), detail)


# ---------------------------------------------------------------------------------------------
# datamodel-code-generator + pydantic
# ---------------------------------------------------------------------------------------------


def module_name(file_name: str) -> str:
    return file_name.removesuffix(".json").replace("-", "_").replace(".", "_")


def generate_models(index, bundle_dir: Path, models_dir: Path) -> list[str]:
    failures = []
    codegen = Path(sys.executable).with_name("datamodel-codegen")
    for family in sorted({f["family"] for f in index["files"]}):
        started = time.monotonic()
        command = [
            str(codegen),
            "--input", str(bundle_dir / family),
            "--input-file-type", "jsonschema",
            "--output", str(models_dir / family),
            "--output-model-type", "pydantic_v2.BaseModel",
            "--no-allow-remote-refs",
            "--extra-fields", "allow",
            "--field-constraints",
            "--target-python-version", "3.11",
            "--disable-timestamp",
            "--no-formatters",
            "--disable-warnings",
        ]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            failures.append(f"datamodel-codegen on {family}: {result.stderr.strip()[-400:]}")
        else:
            print(f"  models/{family}/: generated in {time.monotonic() - started:.1f} s")
    return failures


def canonical_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def run_pydantic(index, bundle_dir: Path, work_dir: Path, vectors, tally: Tally) -> list[str]:
    models_dir = work_dir / "py" / "models"
    models_dir.mkdir(parents=True, exist_ok=True)
    setup = generate_models(index, bundle_dir, models_dir)
    if setup:
        return setup
    sys.path.insert(0, str(models_dir))
    classes = {}
    for root in index["root_types"]:
        family, file_name = root["file"].split("/")
        try:
            module = importlib.import_module(f"{family}.{module_name(file_name)}")
            classes[root["name"]] = getattr(module, root["name"].split(".", 1)[1])
        except Exception as error:  # noqa: BLE001 - reported as a setup failure
            setup.append(f"pydantic model of {root['name']}: {type(error).__name__}: {error}")
    for vector in vectors:
        if vector["expected"] != "valid" or vector["root"] not in classes:
            continue
        model = classes[vector["root"]]
        try:
            # JSON input, as on the wire: strict mode then takes enum values as strings (with
            # Python input it would ask for enum instances).
            value = model.model_validate_json(json.dumps(vector["instance"]), strict=True)
            dumped = value.model_dump(mode="json", by_alias=True, exclude_unset=True)
        except Exception as error:  # noqa: BLE001 - a refusal is the verdict
            message = str(error).replace("\n", " ")[:300]
            tally.check(vector, "valid", "invalid", None, f"{type(error).__name__}: {message}")
            continue
        if canonical_json(dumped) == canonical_json(vector["instance"]):
            tally.check(vector, "valid", "valid", None, "")
        else:
            tally.check(vector, "valid", "invalid", None, f"round trip gave {canonical_json(dumped)[:300]}")
    return setup


# ---------------------------------------------------------------------------------------------


def main() -> None:
    if len(sys.argv) != 5:
        fail("usage: check.py BUNDLE_DIR VECTORS_DIR DIVERGENCES_JSON WORK_DIR")
    bundle_dir, vectors_dir, divergences_path, work_dir = map(Path, sys.argv[1:])
    started = time.monotonic()
    index = json.loads((bundle_dir / "index.json").read_text(encoding="utf-8"))
    documents = {
        f["$id"]: json.loads((bundle_dir / f["path"]).read_text(encoding="utf-8")) for f in index["files"]
    }
    vectors = load_vectors(vectors_dir)
    divergences = {
        (d["vector"], d["consumer"]): d
        for d in json.loads(divergences_path.read_text(encoding="utf-8"))["divergences"]
    }
    used: set = set()

    tallies = {name: Tally(name, divergences, used) for name in CONSUMERS}
    run_python_jsonschema(index, documents, vectors, tallies["python-jsonschema"])
    tallies["python-jsonschema"].report()
    run_jsonschema_rs(index, documents, vectors, tallies["jsonschema-rs"])
    tallies["jsonschema-rs"].report()
    setup = run_pydantic(index, bundle_dir, work_dir, vectors, tallies["pydantic"])
    tallies["pydantic"].report()
    for line in setup:
        print(f"  FAIL {line}")

    unused = [
        f"{consumer} on {vector}"
        for (vector, consumer) in divergences
        if consumer in CONSUMERS and (vector, consumer) not in used
    ]
    for line in unused:
        print(f"  FAIL listed divergence never checked: {line}")
    print(f"Python consumers done in {time.monotonic() - started:.1f} s")
    failed = sum(len(t.failed) for t in tallies.values()) + len(setup) + len(unused)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
