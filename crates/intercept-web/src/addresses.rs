//! The addresses other machines open an exposed workbench at ([`reachable_at`]): `serve` prints a URL for
//! each, since the address it listens on (`0.0.0.0`) is none a browser can open.

use std::net::{IpAddr, SocketAddr};

/// The addresses other machines can reach a server listening on `bind` at, IPv4 first: none on a loopback
/// address; `bind` itself on one address; on every address (`0.0.0.0`, or `::`, which takes IPv4 too) each
/// address of this machine's network interfaces that are up, except loopback ones and IPv6 link-local ones
/// (a URL cannot name those without their interface). Empty where the interfaces cannot be read.
pub fn reachable_at(bind: SocketAddr) -> Vec<SocketAddr> {
    let ip = bind.ip();
    if ip.is_loopback() {
        return Vec::new();
    }
    if !ip.is_unspecified() {
        return vec![bind];
    }
    let mut found: Vec<IpAddr> =
        interfaces().into_iter().filter(|a| usable(a) && (ip.is_ipv6() || a.is_ipv4())).collect();
    found.sort();
    found.dedup();
    found.into_iter().map(|a| SocketAddr::new(a, bind.port())).collect()
}

/// Whether a URL can name `ip` for another machine.
fn usable(ip: &IpAddr) -> bool {
    let link_local = matches!(ip, IpAddr::V6(v6) if v6.is_unicast_link_local());
    !ip.is_loopback() && !ip.is_unspecified() && !ip.is_multicast() && !link_local
}

/// The addresses of this machine's network interfaces that are up.
#[cfg(unix)]
fn interfaces() -> Vec<IpAddr> {
    use nix::net::if_::InterfaceFlags;
    let Ok(all) = nix::ifaddrs::getifaddrs() else { return Vec::new() };
    let up = all.filter(|i| i.flags.contains(InterfaceFlags::IFF_UP)).filter_map(|i| i.address);
    up.filter_map(|a| {
        let v4 = a.as_sockaddr_in().map(|s| IpAddr::V4(s.ip()));
        v4.or_else(|| a.as_sockaddr_in6().map(|s| IpAddr::V6(s.ip())))
    })
    .collect()
}

#[cfg(not(unix))]
fn interfaces() -> Vec<IpAddr> {
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_machines_reach_it_at_its_own_addresses() {
        assert!(reachable_at("127.0.0.1:8080".parse().unwrap()).is_empty(), "loopback: none");
        assert!(reachable_at("[::1]:8080".parse().unwrap()).is_empty());
        let one: SocketAddr = "192.0.2.9:8080".parse().unwrap();
        assert_eq!(reachable_at(one), vec![one], "one address: itself");
        let every = reachable_at("0.0.0.0:8181".parse().unwrap());
        assert!(every.iter().all(|a| a.is_ipv4() && usable(&a.ip()) && a.port() == 8181), "{every:?}");
        let both = reachable_at("[::]:8181".parse().unwrap());
        assert!(every.iter().all(|a| both.contains(a)), "`::` takes IPv4 too: {both:?}");
        assert!(!usable(&"fe80::1".parse().unwrap()) && !usable(&"::1".parse().unwrap()));
        assert!(usable(&"fd00::2".parse().unwrap()) && usable(&"10.0.0.7".parse().unwrap()));
    }
}
