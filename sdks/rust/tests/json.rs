// The hand-written JSON codec.
use fincore::json::{parse, Value};

#[test]
fn parses_and_serialises_every_kind_of_value() {
    let text = r#"{"a":[1,-2.5,3e2,true,false,null],"b":"x\"\\\/\n\u00e9\ud83d\ude00","c":{}}"#;
    let value = parse(text).unwrap();
    assert_eq!(value.get("a").unwrap().as_array().unwrap()[2], Value::Number(300.0));
    assert_eq!(value.get("b").unwrap().as_str(), Some("x\"\\/\né😀"));
    assert_eq!(value.to_json_string(), r#"{"a":[1,-2.5,300,true,false,null],"b":"x\"\\/\né😀","c":{}}"#);
    assert_eq!(parse(&value.to_json_string()).unwrap(), value);
}

#[test]
fn rejects_what_json_parse_rejects() {
    for bad in ["", "{", "[1,]", "{\"a\" 1}", "01", "1.", "+1", "'x'", "\"\t\"", "nul", "{} x", "\u{feff}{}", "NaN"] {
        assert!(parse(bad).is_err(), "{:?} should not parse", bad);
    }
}

#[test]
fn keeps_the_last_of_repeated_keys_and_replaces_lone_surrogates() {
    assert_eq!(parse(r#"{"k":1,"k":2}"#).unwrap().get("k"), Some(&Value::Number(2.0)));
    assert_eq!(parse(r#""\ud800x""#).unwrap().as_str(), Some("\u{fffd}x"));
}

#[test]
fn large_exponents_become_infinite_like_javascript() {
    assert_eq!(parse("1e400").unwrap().as_f64(), Some(f64::INFINITY));
}
