//! How phones in the hall reach the server: the listening socket (every
//! interface by default, IPv4 and IPv6 on one dual-stack socket), the
//! addresses a phone can open, the lines printed at start, and the command
//! that makes a server listening on this computer only reachable.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpListener};

use anyhow::Context;

/// Listens on `bind`. `[::]:PORT` is every interface, IPv4 and IPv6 (one
/// dual-stack socket); on a machine without IPv6 it falls back to
/// `0.0.0.0:PORT`. Anything else is bound as given.
pub fn listen(bind: &str) -> anyhow::Result<TcpListener> {
    let addr: Option<SocketAddr> = bind.parse().ok();
    match addr {
        Some(SocketAddr::V6(v6)) if v6.ip().is_unspecified() => match dual_stack(v6.port()) {
            Ok(l) => Ok(l),
            Err(e) => {
                tracing::info!(error = %e, "no IPv6: listening on IPv4 only");
                let v4 = SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), v6.port());
                TcpListener::bind(v4).with_context(|| format!("cannot listen on {v4}"))
            }
        },
        _ => TcpListener::bind(bind).with_context(|| format!("cannot listen on {bind}")),
    }
}

fn dual_stack(port: u16) -> std::io::Result<TcpListener> {
    use socket2::{Domain, Protocol, Socket, Type};
    let socket = Socket::new(Domain::IPV6, Type::STREAM, Some(Protocol::TCP))?;
    socket.set_only_v6(false)?;
    socket.set_reuse_address(true)?;
    let addr = SocketAddr::new(IpAddr::V6(Ipv6Addr::UNSPECIFIED), port);
    socket.bind(&addr.into())?;
    socket.listen(1024)?;
    Ok(socket.into())
}

/// Whether a phone can use this address to open an URL: not loopback, and
/// not an IPv6 link-local address (which needs a zone a phone does not know).
fn usable(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(ip) => !ip.is_loopback() && !ip.is_unspecified(),
        IpAddr::V6(ip) => {
            !ip.is_loopback() && !ip.is_unspecified() && (ip.segments()[0] & 0xffc0) != 0xfe80
        }
    }
}

/// The addresses of this machine that a server listening on `listen`
/// accepts phones on, whatever their range (private, CGNAT, public), IPv4
/// first: every interface's for an unspecified address, the address itself
/// for a specific one, none for loopback.
fn hall_ips(listen: SocketAddr) -> Vec<IpAddr> {
    let mut out: Vec<IpAddr> = match listen.ip() {
        ip if ip.is_unspecified() => {
            let v6_too = ip.is_ipv6();
            if_addrs::get_if_addrs()
                .unwrap_or_default()
                .into_iter()
                .map(|i| i.ip())
                .filter(|ip| ip.is_ipv4() || v6_too)
                .filter(|ip| usable(*ip))
                .collect()
        }
        ip if usable(ip) => vec![ip],
        _ => Vec::new(),
    };
    out.sort_by_key(|ip| (ip.is_ipv6(), *ip));
    out.dedup();
    out
}

/// `http://IP:PORT` for an address (IPv6 in brackets).
fn url_of(scheme: &str, ip: IpAddr, port: u16) -> String {
    match ip {
        IpAddr::V4(ip) => format!("{scheme}://{ip}:{port}"),
        IpAddr::V6(ip) => format!("{scheme}://[{ip}]:{port}"),
    }
}

/// The addresses phones open, as URLs with `scheme`
/// (`http://192.168.1.20:8080`).
pub fn hall_urls(listen: SocketAddr, scheme: &str) -> Vec<String> {
    hall_ips(listen)
        .into_iter()
        .map(|ip| url_of(scheme, ip, listen.port()))
        .collect()
}

/// The desk's own address: this computer, on the listening port.
pub fn desk_url(listen: SocketAddr) -> String {
    match listen.ip() {
        IpAddr::V6(ip) if !ip.is_unspecified() => format!("http://[{ip}]:{}", listen.port()),
        IpAddr::V4(ip) if !ip.is_unspecified() => format!("http://{ip}:{}", listen.port()),
        _ => format!("http://127.0.0.1:{}", listen.port()),
    }
}

/// The command that restarts this server listening on every interface: the
/// command line it was started with, its `--bind` replaced.
pub fn restart_command(args: &[String], port: u16) -> String {
    let mut out: Vec<String> = Vec::new();
    let mut skip = false;
    for (i, a) in args.iter().enumerate() {
        if skip {
            skip = false;
            continue;
        }
        if a == "--bind" {
            skip = true;
            continue;
        }
        if a.starts_with("--bind=") {
            continue;
        }
        let name = if i == 0 {
            std::path::Path::new(a)
                .file_name()
                .map_or_else(|| a.clone(), |n| n.to_string_lossy().into_owned())
        } else {
            a.clone()
        };
        out.push(name);
    }
    if out.is_empty() {
        out.push("burraco-td".to_string());
    }
    out.push("--bind".to_string());
    out.push(format!("[::]:{port}"));
    out.join(" ")
}

/// What the server prints on standard output at start (whatever the log
/// level): where the desk opens it and where phones do, or why phones
/// cannot and the command that fixes it.
pub fn banner(listen: SocketAddr, restart: &str, lang: crate::i18n::Lang) -> String {
    use crate::i18n::{t, tf};
    let mut out = format!(
        "{}\n  {} {}/\n",
        t(lang, "reach.ready"),
        t(lang, "reach.desk"),
        desk_url(listen)
    );
    let hall = hall_urls(listen, "http");
    if hall.is_empty() {
        out.push_str(&format!(
            "  {}\n    {restart}\n",
            tf(lang, "reach.loopback_only", &[("address", &listen)])
        ));
    } else {
        let label = t(lang, "reach.phones");
        for (i, url) in hall.iter().enumerate() {
            let shown = if i == 0 {
                label.to_string()
            } else {
                " ".repeat(label.chars().count())
            };
            out.push_str(&format!("  {shown} {url}/\n"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_serves_no_phone_and_says_how_to() {
        let lo: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        assert!(hall_ips(lo).is_empty());
        let text = banner(lo, "burraco-td --bind [::]:8080", crate::i18n::Lang::En);
        assert!(text.contains("http://127.0.0.1:8080/"), "{text}");
        assert!(text.contains("burraco-td --bind [::]:8080"), "{text}");
        let one: SocketAddr = "192.168.1.20:8080".parse().unwrap();
        assert_eq!(hall_urls(one, "http"), ["http://192.168.1.20:8080"]);
        let v6: SocketAddr = "[2001:db8::7]:8080".parse().unwrap();
        assert_eq!(hall_urls(v6, "http"), ["http://[2001:db8::7]:8080"]);
        let link: SocketAddr = "[fe80::1]:8080".parse().unwrap();
        assert!(hall_urls(link, "http").is_empty());
    }

    #[test]
    fn the_restart_command_keeps_the_rest_and_replaces_bind() {
        let args: Vec<String> = [
            "/opt/btd/burraco-td",
            "--bind",
            "127.0.0.1:8080",
            "--timezone",
            "Europe/Rome",
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        assert_eq!(
            restart_command(&args, 8080),
            "burraco-td --timezone Europe/Rome --bind [::]:8080"
        );
        let args = vec![
            "burraco-td".to_string(),
            "--bind=127.0.0.1:9000".to_string(),
        ];
        assert_eq!(restart_command(&args, 9000), "burraco-td --bind [::]:9000");
    }

    #[test]
    fn every_interface_listens_on_both_families() {
        let l = listen("[::]:0").expect("listens");
        let addr = l.local_addr().unwrap();
        // A dual-stack socket (or IPv4 only on a machine without IPv6)
        // accepts an IPv4 client.
        let v4 = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), addr.port());
        assert!(std::net::TcpStream::connect(v4).is_ok());
        assert!(addr.ip().is_unspecified());
    }
}
