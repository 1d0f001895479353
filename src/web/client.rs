//! Who a request comes from (the brakes and the connection caps count by it).

use std::net::{IpAddr, Ipv6Addr, SocketAddr};

use actix_web::HttpRequest;

/// The address a request comes from: the connection's peer, or, only when
/// the `trust_forwarded_for` setting says a reverse proxy sets it, the last
/// entry of `X-Forwarded-For` (the one the proxy added; earlier entries are
/// whatever the client claimed). IPv6 addresses count by their /64
/// network, which one client can change at will.
pub fn client_ip(
    peer: Option<SocketAddr>,
    forwarded_for: Option<&str>,
    trust_forwarded_for: bool,
) -> Option<IpAddr> {
    let forwarded = trust_forwarded_for
        .then(|| {
            forwarded_for?
                .rsplit(',')
                .next()?
                .trim()
                .parse::<IpAddr>()
                .ok()
        })
        .flatten();
    forwarded.or(peer.map(|p| p.ip())).map(network)
}

/// An address as the brakes count it: IPv4 as is (a v4-mapped IPv6 address
/// is its IPv4 one), IPv6 by its /64.
pub fn network(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// The client address of a request (see [`client_ip`]).
pub fn client_addr(req: &HttpRequest, trust_forwarded_for: bool) -> Option<IpAddr> {
    let forwarded = req
        .headers()
        .get("x-forwarded-for")
        .and_then(|v| v.to_str().ok());
    client_ip(req.peer_addr(), forwarded, trust_forwarded_for)
}
