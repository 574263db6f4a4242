#!/usr/bin/env python3
"""Writes the seed corpus fuzz/corpus/<target>/ from the repository's fixtures.

Sources: tests/vectors/<root type>/{valid,invalid}/*.json (the `instance`), examples/*.ndjson,
../shared/acp-examples/docs-v1.ndjson (ACP docs examples), schema/*/*.schema.json and small
closures of schema/acp/acp.schema.json definitions. Only inputs under 8 KiB are kept. Run from
the repository root: `python3 fuzz/seed_corpus.py` (it replaces fuzz/corpus/ except the
`found-<sha1>` files, a fuzz run's corpus minimized and committed on purpose; other additions of
the fuzzer are not kept: the committed corpus stays small and reviewable).
"""

import json
import pathlib
import re
import shutil

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"
DOCS = ROOT.parent / "shared" / "acp-examples" / "docs-v1.ndjson"
TRAFFIC = ROOT.parent / "shared" / "acp-traffic"
MAX_BYTES = 8 * 1024


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


SEEN = set()


def write(target, name, text):
    """Writes one seed, unless it is too large or the target already has the same bytes."""
    data = text.encode() if isinstance(text, str) else text
    if len(data) >= MAX_BYTES or (target, data) in SEEN:
        return
    SEEN.add((target, data))
    directory = CORPUS / target
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_bytes(data)


def vectors(root_type):
    for verdict in ("valid", "invalid"):
        for path in sorted((ROOT / "tests" / "vectors" / root_type / verdict).glob("*.json")):
            yield f"{verdict}-{path.stem}", json.loads(path.read_text())["instance"]


def ndjson(path):
    for number, line in enumerate(path.read_text().splitlines(), 1):
        try:
            yield number, line, json.loads(line)
        except json.JSONDecodeError:
            yield number, line, None


def examples():
    for path in sorted((ROOT / "examples").glob("*.ndjson")):
        for number, line, value in ndjson(path):
            yield f"{path.stem}-{number:02}", line, value
    if DOCS.exists():
        for number, line, value in ndjson(DOCS):
            yield f"docs-v1-{number:02}", line, value


def decoder_seeds():
    for name, instance in vectors("acp.SessionNotification"):
        write("acp_session_notification", f"vector-{name}.json", compact(instance))
    for name, instance in vectors("acp.ToolCallUpdate"):
        write("acp_tool_call_update", f"vector-{name}.json", compact(instance))
    for name, instance in vectors("route.ToolCallRequest"):
        write("route_tool_call_request", f"vector-{name}.json", compact(instance))
    for name, instance in vectors("canonical.ToolSpec"):
        write("canonical_tool_spec", f"vector-{name}.json", compact(instance))

    for name, line, value in examples():
        if value is None:
            # Truncated JSON: a syntax error for every decoder.
            write("acp_session_notification", f"{name}-truncated.json", line)
            continue
        if not isinstance(value, dict):
            continue
        params = value.get("params")
        if value.get("method") == "session/update" and isinstance(params, dict):
            write("acp_session_notification", f"{name}.json", compact(params))
            update = params.get("update")
            if isinstance(update, dict) and update.get("sessionUpdate") == "tool_call_update":
                write("acp_tool_call_update", f"{name}.json", compact(update))
        elif value.get("method") == "session/request_permission" and isinstance(params, dict):
            if isinstance(params.get("toolCall"), dict):
                write("acp_tool_call_update", f"{name}.json", compact(params["toolCall"]))
        elif "toolCallId" in value:
            write("acp_tool_call_update", f"{name}.json", line)
        elif "name" in value and "arguments" in value:
            write("route_tool_call_request", f"{name}.json", line)

    # Hand-written edge cases the fixtures do not cover.
    write("route_tool_call_request", "edge-float-exponent.json",
          '{"name":"n","arguments":{"x":1e9,"y":-0.0,"z":1.5e-7},"progress_token":1e2}')
    write("route_tool_call_request", "edge-duplicate-member.json",
          '{"name":"a","name":"b","arguments":{}}')
    write("route_tool_call_request", "edge-escapes.json",
          '{"name":"\\u00e9\\ud83d\\ude00\\/","arguments":{"a~b/c":[]},"call_key":"\\u0021"}')
    write("route_tool_call_request", "edge-deep.json",
          '{"name":"n","arguments":' + "[" * 70 + "]" * 70 + "}")
    write("acp_session_notification", "edge-not-json.json", b"\xff\xfe{")


def differential_seeds():
    """decode_simd_differential: the decoder seeds of the four types, the shared ACP examples
    and traffic, and the inputs on which sonic-rs and serde_json differ (src/decode/screen.rs)."""
    target = "decode_simd_differential"
    for source in ("acp_session_notification", "acp_tool_call_update", "route_tool_call_request"):
        for path in sorted((CORPUS / source).iterdir()):
            write(target, f"{source}-{path.name}", path.read_bytes())
    lines = []
    sources = [DOCS] + (sorted(TRAFFIC.glob("messages*.ndjson")) if TRAFFIC.exists() else [])
    for path in sources:
        if path.exists() and "provenance" not in path.name:
            lines += [(f"{path.stem}-{n:03}", value) for n, _, value in ndjson(path)]
    for name, value in lines:
        if not isinstance(value, dict) or not isinstance(value.get("params"), dict):
            continue
        params = value["params"]
        if value.get("method") == "session/update":
            write(target, f"{name}.json", compact(params))
            if isinstance(params.get("update"), dict):
                write(target, f"{name}-update.json", compact(params["update"]))
        elif value.get("method") == "session/request_permission":
            write(target, f"{name}.json", compact(params))
    body = '{"sessionId":"s","update":{"sessionUpdate":"tool_call_update","toolCallId":"c",' \
           '"status":"completed","rawInput":%s}}'
    for name, raw in [
        ("negative-zero", "-0"), ("negative-zero-float", "[-0.0,-0e3,-0.5]"),
        ("exponent-overflow", "1e400"), ("exponent-underflow", "[1e-400,-1e-400]"),
        ("u64-max", "18446744073709551615"), ("above-u64", "18446744073709551616"),
        ("below-i64", "-9223372036854775809"), ("23-digits", "12345678901234567890123"),
        ("long-mantissa", "2.2250738585072011e-308"), ("float-exact", "9007199254740993.0"),
        ("surrogate-pair", '"\\ud83d\\ude00"'), ("surrogate-lone", '"\\ud800"'),
        ("surrogate-trailing", '"\\udc00x"'), ("escaped-backslash-u", '"\\\\ud800"'),
        ("control-character", '"a\u0001b"'), ("duplicate-in-value", '{"a":1,"a":2}'),
        ("deep-64", "[" * 64 + "]" * 64), ("deep-65", "[" * 65 + "]" * 65),
        ("deep-129", "[" * 129 + "]" * 129), ("deep-256", "[" * 256 + "]" * 256),
    ]:
        write(target, f"edge-{name}.json", body % raw)
    route = '{"name":"search","arguments":{"q":"x"},%s}'
    for name, extra in [
        ("skipped-lone-surrogate", '"x":"\\ud800"'), ("skipped-deep", '"x":' + "[" * 200 + "]" * 200),
        ("null-defaulted", '"tool_call_id":null'), ("duplicate", '"name":"b"'),
    ]:
        write(target, f"edge-route-{name}.json", route % extra)
    write(target, "edge-route-skipped-invalid-utf8.json",
          b'{"name":"a","arguments":{},"x":"\xff"}')
    write(target, "edge-invalid-utf8.json", b'{"name":"\xff","arguments":{}}')
    write(target, "edge-integer-as-float.json",
          '{"toolCallId":"c","locations":[{"path":"/a","line":1.0}]}')
    plain = '{"name":"a","arguments":{}}'
    for name, text in [
        ("trailing-data", plain + " x"), ("trailing-nul", plain + "\u0000"),
        ("bom", "\ufeff" + plain), ("form-feed", "\u000c" + plain), ("nbsp", plain + "\u00a0"),
        ("json-whitespace", "\r\n\t " + plain + " \n"), ("trailing-comma", plain[:-1] + ",}"),
    ]:
        write(target, f"edge-{name}.json", text)
    big = {"sessionId": "s", "update": {"sessionUpdate": "agent_message_chunk",
           "content": {"type": "text", "text": "fn main() {\n    println!(\"x\");\n}\n" * 150}}}
    write(target, "edge-big.json", compact(big))


def policy_seeds():
    target = "policy_compile_check"
    handwritten = [
        ("type-string", {"type": "string"}, "x"),
        ("pattern", {"type": "string", "pattern": "^[a-z]+\\d{2}$"}, "ab12"),
        ("pattern-lookahead", {"pattern": "(?=a)a"}, "a"),
        ("pattern-properties", {"patternProperties": {"^x-": {"type": "integer"}}}, {"x-a": "s"}),
        ("ref-defs", {"$defs": {"p": {"type": "integer", "minimum": 0}},
                      "properties": {"a": {"$ref": "#/$defs/p"}}}, {"a": -1}),
        ("ref-cycle", {"$defs": {"n": {"items": {"$ref": "#/$defs/n"}}},
                       "$ref": "#/$defs/n"}, [[[]]]),
        ("ref-remote", {"$ref": "https://example.com/s.json"}, 1),
        ("ref-escaped", {"$defs": {"a/b": {"type": "null"}, "c~d": {"type": "boolean"}},
                         "anyOf": [{"$ref": "#/$defs/a~1b"}, {"$ref": "#/$defs/c~0d"}]}, True),
        ("dynamic-ref", {"$dynamicAnchor": "t", "items": {"$dynamicRef": "#t"}}, [1]),
        ("embedded-id", {"properties": {"a": {"$id": "urn:x"}}}, {}),
        ("dialect-draft7", {"$schema": "http://json-schema.org/draft-07/schema#"}, 1),
        ("dialect-draft7-tuple", {"$schema": "http://json-schema.org/draft-07/schema#",
                                  "items": [{"type": "integer"}], "additionalItems": False},
         [1, "x", 2]),
        ("dialect-draft7-ref-siblings", {"$schema": "http://json-schema.org/draft-07/schema#",
                                         "definitions": {"s": {"type": "string"}},
                                         "properties": {"a": {"$ref": "#/definitions/s",
                                                              "maxLength": 1}}}, {"a": "long"}),
        ("dialect-draft7-format", {"$schema": "http://json-schema.org/draft-07/schema#",
                                   "format": "email"}, "not an address"),
        ("dialect-2019-09-recursive-ref", {"$schema": "https://json-schema.org/draft/2019-09/schema",
                                           "$recursiveAnchor": True,
                                           "items": {"$recursiveRef": "#"}}, [[1]]),
        ("dialect-2019-09-tuple", {"$schema": "https://json-schema.org/draft/2019-09/schema",
                                   "items": [{"const": 1}], "unevaluatedItems": False}, [1, 2]),
        ("dialect-mixed", {"$schema": "http://json-schema.org/draft-07/schema#",
                           "items": {"$schema": "https://json-schema.org/draft/2020-12/schema"}},
         []),
        ("dependencies", {"dependencies": {"a": ["b"], "c": {"required": ["d"]}}}, {"a": 1, "c": 2}),
        ("meta-invalid", {"type": 5}, 1),
        ("boolean-false", False, 1),
        ("required-additional", {"type": "object", "required": ["a/b", "~"],
                                 "additionalProperties": False}, {"a/b": 1, "z": 2}),
        ("unevaluated", {"allOf": [{"properties": {"a": True}}],
                         "unevaluatedProperties": False}, {"a": 1, "b": 2}),
        ("if-then-else", {"if": {"type": "integer"}, "then": {"multipleOf": 3},
                          "else": {"const": "x"}}, 7),
        ("contains", {"contains": {"const": 1}, "minContains": 2, "uniqueItems": True}, [1, 1.0]),
        ("format", {"format": "date-time", "type": "string"}, "2024-01-01"),
        ("big-numbers", {"maximum": 1e308, "multipleOf": 1e-308}, 1e300),
        ("deep-instance", {}, json.loads("[" * 70 + "]" * 70)),
    ]
    for name, schema, instance in handwritten:
        write(target, f"edge-{name}.json", compact(schema) + "\n" + compact(instance))

    specs = list(vectors("canonical.ToolSpec"))
    for name, spec in specs:
        schema = spec.get("input_schema") if isinstance(spec, dict) else None
        if schema is not None:
            write(target, f"tool-spec-{name}.json", compact(schema) + "\n{}")
    route_schema = json.loads((ROOT / "schema/route/tool-call-request.schema.json").read_text())
    for name, instance in list(vectors("route.ToolCallRequest"))[::3]:
        write(target, f"route-{name}.json", compact(route_schema) + "\n" + compact(instance))
    spec_schema = json.loads((ROOT / "schema/canonical/tool-spec.schema.json").read_text())
    for name, spec in specs[:6]:
        write(target, f"canonical-{name}.json", compact(spec_schema) + "\n" + compact(spec))


def codegen_seeds():
    target = "codegen_generate"
    for path in sorted(ROOT.glob("schema/*/*.schema.json")):
        if path.stat().st_size < MAX_BYTES:
            write(target, f"{path.parent.name}-{path.stem}.json", path.read_text())

    acp = json.loads((ROOT / "schema/acp/acp.schema.json").read_text())["$defs"]

    def strip(value):
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "description"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    def closure(name):
        seen, todo = set(), [name]
        while todo:
            current = todo.pop()
            if current not in seen:
                seen.add(current)
                todo += re.findall(r"#/\$defs/([A-Za-z0-9_]+)", json.dumps(acp[current]))
        return seen

    for name in ["ToolCallStatus", "ToolKind", "ToolCallLocation", "Diff", "TextContent",
                 "ContentBlock", "ToolCallContent", "ToolCallUpdate", "ToolCall", "PlanEntry",
                 "Plan", "PermissionOption", "Terminal", "EmbeddedResource"]:
        defs = {n: strip(acp[n]) for n in sorted(closure(name))}
        write(target, f"acp-{name}.json", compact({"$defs": defs}))

    handwritten = {
        "bare-string": {"type": "string"},
        "bare-true": True,
        "enum-mixed": {"enum": ["a", 1, None]},
        "object-required": {"type": "object", "properties": {"a b": {"type": "integer"},
                                                              "type": {"type": "string"}},
                            "required": ["a b"]},
        "tagged-union": {"oneOf": [
            {"type": "object", "properties": {"k": {"const": "x"}}, "required": ["k"]},
            {"type": "object", "properties": {"k": {"const": "y"}, "v": {"type": "number"}},
             "required": ["k"]}],
            "discriminator": {"propertyName": "k"}},
        "self-ref": {"$defs": {"Node": {"type": "object", "properties": {
            "next": {"$ref": "#/$defs/Node"}}}}},
        "unknown-keyword": {"type": "string", "contentEncoding": "base64"},
        "ref-missing": {"$defs": {"A": {"$ref": "#/$defs/Missing"}}},
        "ref-other-file": {"$defs": {"A": {"$ref": "other.schema.json#/$defs/B"}}},
        "defs-not-object": {"$defs": 5},
        "names-colliding": {"$defs": {"a-b": {"type": "string"}, "a_b": {"type": "integer"},
                                      "AB": {"type": "null"}}},
        "keyword-names": {"$defs": {"type": {"type": "object", "properties": {
            "self": {"type": "boolean"}, "r#fn": {"type": "string"}}}}},
        "catch-all-branch": {"$defs": {"SessionUpdate": {"oneOf": [
            {"type": "object", "properties": {"t": {"const": "a"}}, "required": ["t"]},
            {"not": {}}]}}},
        "x-leniency": {"type": "object", "properties": {
            "s": {"type": "string", "x-deserialize-default-on-error": True},
            "l": {"type": "array", "items": {"type": "integer"},
                  "x-deserialize-skip-invalid-items": True}}},
    }
    for name, schema in handwritten.items():
        write(target, f"edge-{name}.json", compact(schema))


def main():
    # What fuzzing found and kept (`found-<sha1>`: a run's corpus, minimized with libFuzzer's
    # `-set_cover_merge=1`, see README.md) survives a regeneration; everything else is rewritten.
    found = {}
    if CORPUS.exists():
        found = {path: path.read_bytes() for path in CORPUS.glob("*/found-*")}
        shutil.rmtree(CORPUS)
    decoder_seeds()
    differential_seeds()
    policy_seeds()
    codegen_seeds()
    for path, data in found.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    for directory in sorted(CORPUS.iterdir()):
        files = list(directory.iterdir())
        size = sum(f.stat().st_size for f in files)
        print(f"{directory.name}: {len(files)} files, {size} bytes")


if __name__ == "__main__":
    main()
