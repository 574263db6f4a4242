//! Headers as a gateway handles them: the hop-by-hop ones dropped (RFC 9110, section 7.6.1),
//! `Host` naming the upstream, `Via` added to requests (section 7.6.3); and headers as the
//! report shows them, credentials redacted.

use hyper::header::{HeaderMap, HeaderName, HeaderValue, CONNECTION, HOST, VIA};

/// Hop-by-hop headers: they describe one connection, and a proxy never forwards them (RFC 9110,
/// section 7.6.1; and the proxy credentials of RFC 9110, section 11.7, meant for this hop).
const HOP_BY_HOP: &[&str] = &[
    "connection",
    "keep-alive",
    "proxy-connection",
    "proxy-authenticate",
    "proxy-authorization",
    "te",
    "transfer-encoding",
    "upgrade",
];

/// What the report writes instead of a credential.
pub(super) const REDACTED: &str = "<redacted>";

/// The `Via` this tap adds to each request it forwards.
pub(super) const VIA_VALUE: &str = "1.1 toolcall-tap";

/// Drops the hop-by-hop headers from `headers`: the fixed ones and those `Connection` names.
pub(super) fn drop_hop_by_hop(headers: &mut HeaderMap) {
    let named: Vec<HeaderName> = headers
        .get_all(CONNECTION)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .filter_map(|name| HeaderName::from_bytes(name.trim().as_bytes()).ok())
        .collect();
    for name in named {
        headers.remove(name);
    }
    for name in HOP_BY_HOP {
        headers.remove(*name);
    }
}

/// Prepares a request's headers for the upstream: hop-by-hop ones dropped, `Host` set to the
/// upstream's authority, `Via` appended.
pub(super) fn for_upstream(headers: &mut HeaderMap, authority: &HeaderValue) {
    drop_hop_by_hop(headers);
    headers.insert(HOST, authority.clone());
    headers.append(VIA, HeaderValue::from_static(VIA_VALUE));
}

/// Whether the report shows `name`'s value as [`REDACTED`]: credentials (`Authorization`,
/// `Proxy-Authorization`, `Cookie`, `Set-Cookie`) and any header whose name holds `auth`,
/// `token`, `secret`, `key` or `cookie` (`X-API-Key`, `X-Auth-Token`).
pub(super) fn is_secret(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    ["auth", "token", "secret", "key", "cookie"]
        .iter()
        .any(|word| name.contains(word))
}

/// The headers as the report shows them: names in lowercase, in order, each value as text
/// (lossy), credentials [`REDACTED`].
pub(super) fn shown(headers: &HeaderMap) -> serde_json::Map<String, serde_json::Value> {
    let mut shown = serde_json::Map::new();
    for (name, value) in headers {
        let value = if is_secret(name.as_str()) {
            REDACTED.to_owned()
        } else {
            String::from_utf8_lossy(value.as_bytes()).into_owned()
        };
        match shown.get_mut(name.as_str()) {
            Some(serde_json::Value::String(first)) => {
                first.push_str(", ");
                first.push_str(&value);
            }
            _ => {
                shown.insert(name.as_str().to_owned(), value.into());
            }
        }
    }
    shown
}

/// The value of `name` as text, when there is exactly one that is visible ASCII.
pub(super) fn text(headers: &HeaderMap, name: &str) -> Option<String> {
    let mut values = headers.get_all(name).iter();
    let value = values.next()?;
    if values.next().is_some() {
        return None;
    }
    value.to_str().ok().map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn map(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for (name, value) in pairs {
            headers.append(*name, HeaderValue::from_static(value));
        }
        headers
    }

    #[test]
    fn hop_by_hop_headers_and_those_connection_names_are_dropped() {
        let mut headers = map(&[
            ("connection", "keep-alive, x-hop"),
            ("keep-alive", "timeout=5"),
            ("x-hop", "1"),
            ("transfer-encoding", "chunked"),
            ("te", "trailers"),
            ("upgrade", "h2c"),
            ("proxy-authorization", "Basic eA=="),
            ("content-type", "application/json"),
            ("mcp-session-id", "abc"),
            ("authorization", "Bearer t"),
        ]);
        for_upstream(&mut headers, &HeaderValue::from_static("127.0.0.1:3001"));
        let mut names: Vec<&str> = headers.keys().map(HeaderName::as_str).collect();
        names.sort_unstable();
        assert_eq!(
            names,
            [
                "authorization",
                "content-type",
                "host",
                "mcp-session-id",
                "via"
            ]
        );
        assert_eq!(headers["host"], "127.0.0.1:3001");
        assert_eq!(headers["via"], "1.1 toolcall-tap");
        assert_eq!(headers["authorization"], "Bearer t");
    }

    #[test]
    fn credentials_are_redacted_in_what_the_report_shows() {
        let headers = map(&[
            ("authorization", "Bearer secret"),
            ("cookie", "a=1"),
            ("set-cookie", "b=2"),
            ("x-api-key", "k"),
            ("x-auth-token", "t"),
            ("mcp-session-id", "abc"),
            ("accept", "application/json"),
            ("accept", "text/event-stream"),
        ]);
        assert_eq!(
            serde_json::Value::Object(shown(&headers)),
            serde_json::json!({
                "authorization": "<redacted>", "cookie": "<redacted>", "set-cookie": "<redacted>",
                "x-api-key": "<redacted>", "x-auth-token": "<redacted>", "mcp-session-id": "abc",
                "accept": "application/json, text/event-stream"
            })
        );
        assert_eq!(text(&headers, "mcp-session-id").as_deref(), Some("abc"));
        assert_eq!(text(&headers, "accept"), None);
    }
}
