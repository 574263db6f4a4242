//! What the tap accepts: a loopback listen address unless told otherwise, and requests whose
//! `Host` and `Origin` are local, as the MCP specification asks of local servers against DNS
//! rebinding (a web page whose name resolves to 127.0.0.1 must not reach the upstream through
//! the tap).

use std::fmt;
use std::net::{IpAddr, SocketAddr};

use hyper::header::{HeaderMap, HOST, ORIGIN};

/// Why a request was refused (answered `403 Forbidden`, never forwarded).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Refusal {
    /// No `Host`, or one naming neither this tap's address nor an allowed name.
    Host(Option<String>),
    /// An `Origin` that is not local and not allowed.
    Origin(String),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Host(None) => write!(f, "no `Host` header"),
            Self::Host(Some(host)) => write!(
                f,
                "`Host` `{host}` is not this tap's address (DNS rebinding protection; \
                 --allow-host adds a name)"
            ),
            Self::Origin(origin) => write!(
                f,
                "`Origin` `{origin}` is not local (DNS rebinding protection; --allow-origin adds \
                 one)"
            ),
        }
    }
}

/// Refuses a listen address that is not loopback unless `allow_remote`.
pub(super) fn check_listen(address: SocketAddr, allow_remote: bool) -> Result<(), String> {
    if address.ip().is_loopback() || allow_remote {
        return Ok(());
    }
    Err(format!(
        "refusing to listen on `{address}`, which is not a loopback address: whoever can reach \
         it could use the upstream through the tap (pass --allow-remote to listen there anyway)"
    ))
}

/// The `Host` and `Origin` checks.
#[derive(Debug, Clone)]
pub(super) struct Guard {
    /// The port clients reach the tap on.
    port: u16,
    /// The listen address, when it is a specific one.
    ip: Option<IpAddr>,
    /// More host names accepted in `Host` (any port), lowercase.
    hosts: Vec<String>,
    /// More origins accepted, lowercase (`https://app.example`).
    origins: Vec<String>,
}

impl Guard {
    pub(super) fn new(listen: SocketAddr, hosts: &[String], origins: &[String]) -> Self {
        Self {
            port: listen.port(),
            ip: (!listen.ip().is_unspecified()).then_some(listen.ip()),
            hosts: hosts.iter().map(|host| host.to_ascii_lowercase()).collect(),
            origins: origins
                .iter()
                .map(|origin| origin.trim_end_matches('/').to_ascii_lowercase())
                .collect(),
        }
    }

    /// The port the tap listens on (once bound: port 0 asks the system for one).
    pub(super) fn set_port(&mut self, port: u16) {
        self.port = port;
    }

    /// Checks a request's `Host` and `Origin`.
    pub(super) fn check(&self, headers: &HeaderMap) -> Result<(), Refusal> {
        let host = headers.get(HOST).and_then(|value| value.to_str().ok());
        let Some(host) = host else {
            return Err(Refusal::Host(None));
        };
        if !self.host_allowed(host) {
            return Err(Refusal::Host(Some(host.to_owned())));
        }
        if let Some(origin) = headers.get(ORIGIN) {
            let origin = String::from_utf8_lossy(origin.as_bytes()).into_owned();
            if !self.origin_allowed(&origin) {
                return Err(Refusal::Origin(origin));
            }
        }
        Ok(())
    }

    fn host_allowed(&self, host: &str) -> bool {
        let (name, port) = split_port(host);
        let name = name.to_ascii_lowercase();
        if self.hosts.contains(&name) {
            return true;
        }
        let local = is_loopback_name(&name)
            || self
                .ip
                .is_some_and(|ip| parse_ip(&name).is_some_and(|named| named == ip));
        local && port.unwrap_or(80) == self.port
    }

    fn origin_allowed(&self, origin: &str) -> bool {
        let origin = origin.to_ascii_lowercase();
        if self.origins.contains(&origin) {
            return true;
        }
        let Some(rest) = origin
            .strip_prefix("http://")
            .or_else(|| origin.strip_prefix("https://"))
        else {
            return false;
        };
        let (name, _) = split_port(rest);
        is_loopback_name(name)
    }
}

/// `host[:port]` or `[v6][:port]` split; the port `None` when absent or not a number.
fn split_port(host: &str) -> (&str, Option<u16>) {
    if let Some(bracketed) = host.strip_prefix('[') {
        return match bracketed.split_once(']') {
            Some((ip, rest)) => (
                &host[..ip.len() + 2],
                rest.strip_prefix(':').and_then(|port| port.parse().ok()),
            ),
            None => (host, None),
        };
    }
    match host.rsplit_once(':') {
        Some((name, port)) => (name, port.parse().ok()),
        None => (host, None),
    }
}

fn parse_ip(name: &str) -> Option<IpAddr> {
    name.trim_start_matches('[')
        .trim_end_matches(']')
        .parse()
        .ok()
}

fn is_loopback_name(name: &str) -> bool {
    name == "localhost" || parse_ip(name).is_some_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use hyper::header::HeaderValue;

    use super::*;

    fn headers(host: Option<&'static str>, origin: Option<&'static str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(host) = host {
            headers.insert(HOST, HeaderValue::from_static(host));
        }
        if let Some(origin) = origin {
            headers.insert(ORIGIN, HeaderValue::from_static(origin));
        }
        headers
    }

    #[test]
    fn only_loopback_listen_addresses_without_the_flag() {
        assert!(check_listen("127.0.0.1:0".parse().unwrap(), false).is_ok());
        assert!(check_listen("[::1]:8080".parse().unwrap(), false).is_ok());
        let refused = check_listen("0.0.0.0:8080".parse().unwrap(), false).unwrap_err();
        assert!(refused
            .starts_with("refusing to listen on `0.0.0.0:8080`, which is not a loopback address"));
        assert!(check_listen("0.0.0.0:8080".parse().unwrap(), true).is_ok());
    }

    #[test]
    fn hosts_must_name_the_tap_and_origins_must_be_local() {
        let guard = Guard::new("127.0.0.1:4000".parse().unwrap(), &[], &[]);
        for host in [
            "127.0.0.1:4000",
            "localhost:4000",
            "[::1]:4000",
            "LOCALHOST:4000",
        ] {
            assert_eq!(guard.check(&headers(Some(host), None)), Ok(()), "{host}");
        }
        for host in [
            "evil.example:4000",
            "127.0.0.1:4001",
            "localhost",
            "attacker.localhost.example:4000",
        ] {
            assert_eq!(
                guard.check(&headers(Some(host), None)),
                Err(Refusal::Host(Some(host.to_owned()))),
                "{host}"
            );
        }
        assert_eq!(guard.check(&headers(None, None)), Err(Refusal::Host(None)));
        for origin in [
            "http://localhost:6274",
            "http://127.0.0.1",
            "https://[::1]:3000",
        ] {
            assert_eq!(
                guard.check(&headers(Some("localhost:4000"), Some(origin))),
                Ok(())
            );
        }
        for origin in [
            "http://evil.example",
            "null",
            "http://localhost.evil.example",
        ] {
            let refused = guard.check(&headers(Some("localhost:4000"), Some(origin)));
            assert_eq!(refused, Err(Refusal::Origin(origin.to_owned())));
        }
        assert_eq!(
            Refusal::Origin("http://evil.example".into()).to_string(),
            "`Origin` `http://evil.example` is not local (DNS rebinding protection; \
             --allow-origin adds one)"
        );
    }

    #[test]
    fn allowed_names_and_origins_add_to_the_local_ones() {
        let guard = Guard::new(
            "0.0.0.0:4000".parse().unwrap(),
            &["tap.internal".to_owned()],
            &["https://App.example/".to_owned()],
        );
        assert_eq!(
            guard.check(&headers(Some("tap.internal:8443"), None)),
            Ok(())
        );
        assert_eq!(
            guard.check(&headers(
                Some("localhost:4000"),
                Some("https://app.example")
            )),
            Ok(())
        );
        assert!(guard.check(&headers(Some("10.0.0.5:4000"), None)).is_err());
        let specific = Guard::new("10.0.0.5:4000".parse().unwrap(), &[], &[]);
        assert_eq!(
            specific.check(&headers(Some("10.0.0.5:4000"), None)),
            Ok(())
        );
    }
}
