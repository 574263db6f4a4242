use serde_json::{json, Value};
use std::time::{Duration, Instant};
use toolcall_contracts::policy::*;

fn t<R>(label: &str, f: impl FnOnce() -> R) -> R {
    let start = Instant::now();
    let r = f();
    eprintln!("{label}: {:?}", start.elapsed());
    r
}

fn loose() -> SchemaPolicy {
    let mut p = SchemaPolicy::default();
    p.max_schema_bytes = 1 << 20;
    p.max_expanded_size = 1 << 20;
    p.max_check_work = u64::MAX;
    p
}

fn unit(label: &str, schema: &Value, instance: &Value) {
    let mut p = loose();
    p.max_regex_bytes = 16 << 20;
    let c = p.compile(schema).unwrap();
    let work = c.work(instance).unwrap();
    let start = Instant::now();
    let r = c.check(instance);
    let el = start.elapsed();
    eprintln!("UNIT {label}: size {} work {work} time {el:?} ns/unit {:.2} ok={}", c.expanded_size(), el.as_nanos() as f64 / work as f64, r.is_ok());
}

#[test]
#[ignore]
fn measure_units() {
    let zeros: Value = Value::Array(vec![json!(0); 200_000]);
    let subs: Vec<Value> = (0..1000).map(|_| json!({"minimum": 0})).collect();
    unit("allOf minimum x zeros", &json!({"items": {"allOf": subs}}), &zeros);
    let subs: Vec<Value> = (0..1000).map(|i| json!({"const": i + 1})).chain([json!({"const": 0})]).collect();
    unit("anyOf const x zeros", &json!({"items": {"anyOf": subs}}), &zeros);
    let subs: Vec<Value> = (0..1000).map(|i| json!({"not": {"const": i + 1}})).collect();
    unit("oneOf-ish not const", &json!({"items": {"allOf": subs}}), &zeros);
    let objs = Value::Array(vec![json!({"a": [0]}); 50_000]);
    let vals: Vec<Value> = (1..1000).map(|i| json!({"a": [i]})).chain([json!({"a": [0]})]).collect();
    unit("enum objects", &json!({"items": {"enum": vals}}), &objs);
    let vals: Vec<Value> = (1..1000).map(|i| json!([i, i])).chain([json!([0, 0])]).collect();
    let pairs = Value::Array(vec![json!([0, 0]); 50_000]);
    unit("enum arrays", &json!({"items": {"enum": vals}}), &pairs);
    let req: Vec<Value> = (0..2000).map(|i| json!(format!("k{i}"))).collect();
    let mut obj = serde_json::Map::new();
    for i in 0..2000 { obj.insert(format!("k{i}"), json!(0)); }
    let objs = Value::Array(vec![Value::Object(obj.clone()); 50]);
    unit("required 2000 x 50 objs", &json!({"items": {"required": req}}), &objs);
    let mut props = serde_json::Map::new();
    for i in 0..2000 { props.insert(format!("k{i}"), json!({"type": "integer"})); }
    unit("properties 2000 x 50 objs", &json!({"items": {"properties": props, "additionalProperties": false}}), &objs);
    let subs: Vec<Value> = (0..300).map(|i| json!({"if": {"minimum": i}, "then": {"maximum": 100000}, "else": {"type": "integer"}})).collect();
    unit("if/then/else", &json!({"items": {"allOf": subs}}), &zeros);
    let s01: String = (0..1_000_000u32).map(|i| if (i.wrapping_mul(2654435761) >> 7) & 1 == 1 { '1' } else { '0' }).collect();
    for pat in ["^[01]*1[01]{12}$", "[01]*1[01]{20}$", "^(0|1|01|10)*$"] {
        let subs: Vec<Value> = (0..20).map(|i| json!({"pattern": format!("{pat}|x{i}")})).collect();
        unit(&format!("20 patterns {pat} x 1MB"), &json!({"allOf": subs}), &json!(s01));
    }
    let subs: Vec<Value> = (0..20).map(|i| json!({"maxLength": 2_000_000 + i})).collect();
    unit("20 maxLength x 1MB", &json!({"allOf": subs}), &json!(s01));
    let strs = Value::Array((0..100_000).map(|i| json!(format!("{i:08}"))).collect());
    unit("uniqueItems 100k strings", &json!({"uniqueItems": true}), &strs);
    let mut keys = serde_json::Map::new();
    for i in 0..50_000 { keys.insert(format!("{i:010}"), json!(0)); }
    let pp: serde_json::Map<String, Value> = (0..20).map(|i| (format!("^[0-9]*{i}[0-9]{{4}}$"), json!({"type": "integer"}))).collect();
    unit("patternProperties 20 x 50k keys", &json!({"patternProperties": pp}), &Value::Object(keys.clone()));
    unit("propertyNames pattern x 50k keys", &json!({"propertyNames": {"pattern": "^[0-9]*1[0-9]{4}$|^[0-9]+$"}}), &Value::Object(keys));
    let s01: String = { let mut x: String = (0..1_000_000u32).map(|i| if (i.wrapping_mul(2654435761) >> 7) & 1 == 1 { '1' } else { '0' }).collect(); let n = x.len(); x.replace_range(n - 1100.., &"0".repeat(1100)); x };
    for k in [100usize, 300, 1000, 2000] {
        unit(&format!("thrash ^[01]*1[01]{{{k}}}$ x 1MB"), &json!({"pattern": format!("^[01]*1[01]{{{k}}}$")}), &json!(s01));
    }
    let short: String = s01[..100_000].to_owned();
    unit("thrash {3000} x 100KB", &json!({"pattern": "^(?:0|1)*1(?:0|1){3000}$"}), &json!(short));
}

#[test]
#[ignore]
fn measure_compile() {
    let p = SchemaPolicy::default();
    // chain near the expanded-size limit
    let n = (SchemaPolicy::DEFAULT_MAX_EXPANDED_SIZE / 2 - 10) as usize;
    let mut defs = serde_json::Map::new();
    for i in 0..n { defs.insert(format!("{i}"), json!({"$ref": format!("#/$defs/{}", i + 1)})); }
    defs.insert(format!("{n}"), json!({"type": "integer"}));
    let schema = json!({"$defs": defs, "$ref": "#/$defs/0"});
    let mut big = p.clone();
    big.max_schema_bytes = 1 << 20;
    let r = t(&format!("COMPILE chain {n} (bytes {})", serde_json::to_vec(&schema).unwrap().len()), || big.compile(&schema).map(|c| c.expanded_size()));
    eprintln!("  {r:?}");
    let n = 2000;
    let mut defs = serde_json::Map::new();
    for i in 0..n { defs.insert(format!("{i}"), json!({"$ref": format!("#/$defs/{}", i + 1)})); }
    defs.insert(format!("{n}"), json!({"type": "integer"}));
    let schema = json!({"$defs": defs, "$ref": "#/$defs/0"});
    let r = t(&format!("COMPILE chain {n} (bytes {})", serde_json::to_vec(&schema).unwrap().len()), || p.compile(&schema).map(|c| c.expanded_size()));
    eprintln!("  {r:?}");
    // diamond just below the limit
    let mut defs = serde_json::Map::new();
    defs.insert("d0".into(), json!({"type": "integer"}));
    for i in 1..=12 { defs.insert(format!("d{i}"), json!({"allOf": [{"$ref": format!("#/$defs/d{}", i - 1)}, {"$ref": format!("#/$defs/d{}", i - 1)}]})); }
    let schema = json!({"$defs": defs, "$ref": "#/$defs/d12"});
    let r = t("COMPILE diamond 12", || p.compile(&schema).map(|c| c.expanded_size()));
    eprintln!("  {r:?}");
    // many distinct patterns, each big
    for (label, mk) in [("a{N}", (|i: usize| format!("^a{{{}}}$", 2000 + i)) as fn(usize) -> String), ("[01]*1[01]{N}", |i: usize| format!("[01]*1[01]{{{}}}$", 10 + i % 10) + &"x".repeat(i / 10))] {
        let mut props = serde_json::Map::new();
        let mut i = 0;
        loop {
            props.insert(format!("p{i}"), json!({"pattern": mk(i)}));
            i += 1;
            if serde_json::to_vec(&props).unwrap().len() > 60_000 { break; }
        }
        let schema = json!({"properties": props});
        let r = t(&format!("COMPILE {i} patterns {label}"), || p.compile(&schema).map(|c| c.expanded_size()));
        eprintln!("  {:?}", r.map_err(|e| e.to_string()));
    }
    // single biggest pattern under the limit
    for n in [1000usize, 3000, 6000, 10000, 20000] {
        let schema = json!({"pattern": format!("^[a-z]{{{n}}}$")});
        let r = t(&format!("COMPILE [a-z]{{{n}}}"), || p.compile(&schema).map(|c| c.expanded_size()));
        eprintln!("  {:?}", r.map_err(|e| e.to_string()));
        let schema = json!({"pattern": format!("[01]*1[01]{{{}}}$", n / 100)});
        let r = t(&format!("COMPILE [01]*1[01]{{{}}}", n / 100), || p.compile(&schema).map(|c| c.expanded_size()));
        eprintln!("  {:?}", r.map_err(|e| e.to_string()));
    }
    let _ = Duration::ZERO;
}

#[test]
#[ignore]
fn measure_patterns() {
    for limit in [256 * 1024usize, 64 * 1024] {
        let mut p = SchemaPolicy::default();
        p.max_regex_bytes = limit;
        for base in [r"a", r"(?:a|b)", r".", r"\S", r"[\u0080-\uffff]", r"[^a]", r"\w", r"(?:ab|cd|ef|gh)", r"[01]*1[01]", r"[\s\S]", r"\D"] {
            let mut worst = (Duration::ZERO, 0usize, String::new());
            for n in [10usize, 30, 100, 300, 1000, 2000, 5000, 20000] {
                let pat = format!("^{base}{{{n}}}x$");
                let schema = json!({"pattern": pat});
                let start = Instant::now();
                let r = p.compile(&schema);
                let el = start.elapsed();
                if el > worst.0 { worst = (el, n, format!("{:?}", r.as_ref().map(|_| ()).map_err(|e| e.to_string().chars().take(40).collect::<String>()))); }
            }
            eprintln!("PAT limit {limit} {base}: worst {:?} at n={} {}", worst.0, worst.1, worst.2);
        }
    }
}

#[test]
#[ignore]
fn measure_thrash() {
    let mut s01: String = (0..1_000_000u32).map(|i| if (i.wrapping_mul(2654435761) >> 7) & 1 == 1 { '1' } else { '0' }).collect();
    s01.replace_range(0..1, "1");
    let n = s01.len();
    // make the char n-k-1 a '0' for all k tested: set the last 1100 chars to '0'
    s01.replace_range(n - 1100.., &"0".repeat(1100));
    for limit in [128 * 1024usize, 256 * 1024] {
        let mut p = SchemaPolicy::default();
        p.max_regex_bytes = limit;
        for k in [12usize, 20, 40, 100, 300, 1000] {
            for pat in [format!("^[01]*1[01]{{{k}}}$"), format!("1[01]{{{k}}}$"), format!("^(?:0|1)*1(?:0|1){{{k}}}$")] {
                let schema = json!({"pattern": pat});
                match p.compile(&schema) {
                    Ok(c) => { let start = Instant::now(); let r = c.check(&json!(s01)); eprintln!("THRASH limit {limit} {pat}: {:?} valid={}", start.elapsed(), r.is_ok()); }
                    Err(e) => eprintln!("THRASH limit {limit} {pat}: refused {}", e.to_string().chars().take(30).collect::<String>()),
                }
            }
        }
    }
}

#[test]
#[ignore]
fn measure_thrash2() {
    let s01: String = (0..1_000_000u32).map(|i| if (i.wrapping_mul(2654435761) >> 7) & 1 == 1 { '1' } else { '0' }).collect();
    for k in [20usize, 100, 500, 2000] {
        for pat in [
            format!("^(?:[01]*1[01]{{{k}}}x)*[01]*$"),
            format!("[01]*1[01]{{{k}}}[2-9]"),
            format!("^[01]*1[01]{{{k}}}(?:[2-9]|$)"),
            format!("^(?:[01]*1[01]{{{k}}}[2-9]|[01]*)$"),
            format!("1[01]{{{k}}}[2-9a-z]"),
            format!("(?:0|1)*1(?:0|1){{{k}}}[^01]"),
        ] {
            unit(&format!("T2 {pat}"), &json!({"pattern": pat}), &json!(s01));
        }
    }
}
