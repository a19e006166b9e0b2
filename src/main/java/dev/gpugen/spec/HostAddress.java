package dev.gpugen.spec;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Whether a text that Ansible will connect to (a static host's address, an EC2 address, an
 * inventory host name used without {@code ansible_host}) names some other machine, as the resolver
 * of the machine that connects would read it. gpugen resolves nothing (lint is offline), so it
 * accepts only forms whose meaning does not depend on the resolver: a canonical dotted quad, an
 * IPv6 address in the RFC 4291 text form, or a DNS name that no resolver reads as a number.
 *
 * <p>Refused: loopback, unspecified, link-local, multicast and reserved addresses (the IANA
 * special-purpose registries); IPv4-mapped and IPv4-compatible IPv6 ({@code ::ffff:7f00:1} is
 * 127.0.0.1); a name whose last label is a number ({@code 127.1}, {@code 0x7f000001}, {@code
 * 017700000001}: glibc's getaddrinfo reads those with inet_aton's rules, short, hex and octal forms
 * included, before any DNS query, https://man7.org/linux/man-pages/man3/inet_aton.3.html); and the
 * names the stock /etc/hosts of Debian, Ubuntu, Fedora and RHEL give loopback or multicast
 * addresses ({@code localhost}, {@code ip6-localhost}, {@code localhost4}, ...), with RFC 6761's
 * {@code *.localhost}. A DNS name that some DNS server answers with 127.0.0.1 cannot be seen here.
 */
public final class HostAddress {
  private HostAddress() {}

  private static final Pattern DOTTED_QUAD =
      Pattern.compile(
          "(?:(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}"
              + "(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])");

  /** A label inet_aton reads as a number: decimal, octal (leading 0) or hex (0x). */
  private static final Pattern NUMERIC_LABEL = Pattern.compile("[0-9]+|0x[0-9a-f]*");

  /**
   * Loopback and multicast names of the stock /etc/hosts files: Debian's and Ubuntu's (netbase,
   * {@code ip6-*}), Fedora's and RHEL's (setup, {@code localhost4}, {@code localhost6}).
   */
  private static final Set<String> HOSTS_FILE_NAMES =
      Set.of(
          "localhost",
          "ip6-localhost",
          "ip6-loopback",
          "ip6-localnet",
          "ip6-mcastprefix",
          "ip6-allnodes",
          "ip6-allrouters",
          "localhost4",
          "localhost6");

  /**
   * Why {@code text} does not name another machine (a phrase like "a loopback address
   * (127.0.0.0/8): the controller itself"), or empty when it is a usable address or name.
   */
  public static Optional<String> problem(String text) {
    String s = text.toLowerCase(Locale.ROOT);
    if (DOTTED_QUAD.matcher(s).matches()) {
      return ipv4(s);
    }
    if (s.contains(":")) {
      return ipv6(s);
    }
    return name(s);
  }

  private static Optional<String> ipv4(String s) {
    String[] parts = s.split("\\.");
    int a = Integer.parseInt(parts[0]);
    int b = Integer.parseInt(parts[1]);
    if (a == 127) {
      return Optional.of("a loopback address (127.0.0.0/8): the controller itself");
    }
    if (a == 0) {
      return Optional.of(
          "an unspecified address (0.0.0.0/8): Linux connects to 0.0.0.0 on the controller itself");
    }
    if (a == 169 && b == 254) {
      return Optional.of(
          "a link-local address (169.254.0.0/16): it names no one host, and on EC2 it is the"
              + " instance metadata service");
    }
    if (a >= 224 && a <= 239) {
      return Optional.of("a multicast address (224.0.0.0/4), not a host");
    }
    if (a >= 240) {
      return Optional.of("a reserved or broadcast address (240.0.0.0/4), not a host");
    }
    return Optional.empty();
  }

  private static Optional<String> ipv6(String s) {
    int[] g = ipv6Groups(s);
    if (g == null) {
      return Optional.of("not an IPv6 address in the RFC 4291 text form");
    }
    boolean first80Zero = g[0] == 0 && g[1] == 0 && g[2] == 0 && g[3] == 0 && g[4] == 0;
    if (first80Zero && g[5] == 0 && g[6] == 0 && (g[7] == 0 || g[7] == 1)) {
      return Optional.of(
          g[7] == 1
              ? "the IPv6 loopback address (::1): the controller itself"
              : "the unspecified IPv6 address (::): Linux connects to it on the controller itself");
    }
    if (first80Zero && (g[5] == 0xffff || g[5] == 0)) {
      return Optional.of(
          "an IPv4-"
              + (g[5] == 0 ? "compatible" : "mapped")
              + " IPv6 address, which is IPv4 address "
              + (g[6] >> 8)
              + "."
              + (g[6] & 0xff)
              + "."
              + (g[7] >> 8)
              + "."
              + (g[7] & 0xff)
              + "; write that IPv4 address instead");
    }
    if ((g[0] & 0xffc0) == 0xfe80) {
      return Optional.of(
          "a link-local IPv6 address (fe80::/10): it names no one host without an interface");
    }
    if ((g[0] & 0xff00) == 0xff00) {
      return Optional.of("a multicast IPv6 address (ff00::/8), not a host");
    }
    return Optional.empty();
  }

  /** The eight 16-bit groups of an RFC 4291 text form (hex groups, one "::" at most), or null. */
  private static int[] ipv6Groups(String s) {
    String[] halves = s.split("::", -1);
    if (halves.length > 2) {
      return null;
    }
    String[] head = halves[0].isEmpty() ? new String[0] : halves[0].split(":", -1);
    String[] tail =
        halves.length < 2 || halves[1].isEmpty() ? new String[0] : halves[1].split(":", -1);
    int missing = 8 - head.length - tail.length;
    if (halves.length == 2 ? missing < 1 : missing != 0) {
      return null;
    }
    int[] groups = new int[8];
    int i = 0;
    for (String h : head) {
      groups[i++] = hex16(h);
    }
    i += missing;
    for (String t : tail) {
      groups[i++] = hex16(t);
    }
    for (int x : groups) {
      if (x < 0) {
        return null;
      }
    }
    return groups;
  }

  private static int hex16(String group) {
    return group.matches("[0-9a-f]{1,4}") ? Integer.parseInt(group, 16) : -1;
  }

  private static Optional<String> name(String s) {
    if (HOSTS_FILE_NAMES.contains(s)
        || s.startsWith("localhost.")
        || s.startsWith("localhost4.")
        || s.startsWith("localhost6.")
        || s.endsWith(".localhost")) {
      return Optional.of(
          "a name the stock /etc/hosts (or RFC 6761, for *.localhost) gives the loopback address"
              + " or a multicast group: the controller itself, not a host");
    }
    String last = s.substring(s.lastIndexOf('.') + 1);
    if (NUMERIC_LABEL.matcher(last).matches()) {
      return Optional.of(
          "a number, not a canonical dotted quad: resolvers read it with inet_aton's rules (127.1,"
              + " 0x7f000001 and 017700000001 are all 127.0.0.1), and a DNS name's last label is"
              + " never a number");
    }
    return Optional.empty();
  }
}
